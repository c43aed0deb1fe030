import KeyscopeCore
public import KeyscopeInspector
public import KeyscopeProtocol
public import KeyscopeRecording

/// The fleet dashboard as a feature of an inspector server (`keyscope fleet`, docs/fleet.md): the server's
/// WebSocket serves every instance of the fleet (`/ws?instance=ID`, `/ws?instance=*`), and `GET /api/fleet` and
/// `GET /api/fleet/diff` list and compare them.
///
/// ```swift
/// let view = FleetView(try FleetView.Options(redis: "redis://127.0.0.1:6379", fleet: "shop"))
/// let server = Inspector.makeServer(registry: StoreRegistry(), options: options, features: [FleetDashboard(view)],
///                                   logger: logger)
/// ```
public final class FleetDashboard: InspectorFeature {
    public let name = "fleet"
    public let view: FleetView
    /// Whether the dashboard refuses every request to an instance itself (`keyscope fleet --read-only`).
    public let readOnly: Bool
    private let link = HubLink()

    public init(_ view: FleetView, readOnly: Bool = false) {
        self.view = view
        self.readOnly = readOnly
    }

    static let readOnlyRefusal = HubError(
        code: .readOnly,
        message: "this fleet dashboard is read-only (keyscope fleet --read-only): it sends no request to any instance")

    public var routes: [FeatureRoute] {
        [
            FeatureRoute(.get, "/api/fleet") { [view] _ in .json(view.fleetObject()) },
            FeatureRoute(.get, "/api/snapshot", replacesBuiltIn: true) { [view] request throws(HubError) in
                let id = try Self.instance(in: request, view: view)
                guard let snapshot = view.snapshotMessage(of: id) else {
                    throw HubError(
                        code: .unavailable, message: "the dashboard has not read \(id)'s state yet; try again")
                }
                return .encoded(snapshot)
            },
            FeatureRoute(.post, "/api/request", body: .bytes, replacesBuiltIn: true) {
                [view, readOnly] request throws(HubError) in
                try Self.carry(request, view: view, readOnly: readOnly)
            },
            FeatureRoute(.get, "/api/fleet/diff") { [view] request throws(HubError) in
                guard let a = request.query["a"], let b = request.query["b"] else {
                    throw .badRequest("name the two instances: /api/fleet/diff?a=ID&b=ID (see /api/fleet)")
                }
                for id in [a, b] where view.instance(id) == nil { throw view.unknownInstanceError(id) }
                guard let diff = view.diff(a, b) else {
                    throw HubError(code: .unavailable, message: "the dashboard has not read both states yet; try again")
                }
                return .json(diff.jsonObject)
            },
        ] + carriedRoutes
    }

    /// What a recording started on the dashboard records (`RecordingsFeature(library, feeds:)`): the instance that
    /// `POST /api/recordings?instance=ID` names, from the dashboard's mirror.
    public var recordingFeeds: RecordingsFeature.Feeds {
        { [view] query throws(HubError) in
            guard let id = query["instance"], !id.isEmpty else {
                throw .badRequest(
                    "a fleet dashboard records one instance: POST /api/recordings?instance=ID (GET /api/fleet lists them)"
                )
            }
            return try FleetRecorderFeed(view: view, instance: id)
        }
    }

    /// `POST /api/request?instance=ID|*`: the request object of the body carried to the instance (or to every live
    /// one), answered with its reply (its status follows the reply's error) once it comes, within 5 s.
    static func carry(_ request: FeatureRoute.Request, view: FleetView, readOnly: Bool) throws(HubError)
        -> FeatureRoute.Response
    {
        guard let target = request.query["instance"], !target.isEmpty else {
            throw .badRequest(
                "a fleet dashboard carries a request to an instance: POST /api/request?instance=ID, or instance=* "
                    + "for every live one (GET /api/fleet lists them)")
        }
        guard let members = FleetMessages.members(request.bytes) else {
            throw HubError(
                code: .badJSON, message: "the body must be one request object, such as {\"type\":\"write\",…}")
        }
        if target != "*", view.instance(target) == nil { throw view.unknownInstanceError(target) }
        if readOnly, members["type"] != "resync" { throw readOnlyRefusal }
        // As sent: the instance reads it as its own inspector would.
        let bytes = request.bytes
        return .later { respond in
            let reply: @Sendable ([UInt8]) -> Void = { reply in respond(.encoded(reply, status: Self.status(of: reply)))
            }
            if target == "*" {
                view.broadcast(bytes, completion: reply)
            } else {
                view.send(bytes, to: target, completion: reply)
            }
        }
    }

    /// The HTTP status of a reply: 200, or its error code's.
    static func status(of reply: [UInt8]) -> Int {
        guard let object = (try? StoreValue(jsonBytes: reply))?.objectValue, object["ok"] != .bool(true),
            case .string(let code)? = object["error"]?.objectValue?["code"]
        else { return 200 }
        return HubError.Code(rawValue: code).httpStatus
    }

    /// The `instance` a request names, known to the fleet.
    static func instance(in request: FeatureRoute.Request, view: FleetView) throws(HubError) -> String {
        guard let id = request.query["instance"], !id.isEmpty else {
            throw .badRequest(
                "a fleet dashboard serves many instances: name one with ?instance=ID (GET /api/fleet lists them)")
        }
        guard view.instance(id) != nil else { throw view.unknownInstanceError(id) }
        return id
    }

    public func stream(for query: [String: String]) throws(HubError) -> (any FeatureStream)? {
        let target = query["instance"] ?? "*"
        if target == "*" { return AllInstancesStream(view: view, readOnly: readOnly) }
        guard view.instance(target) != nil else { throw view.unknownInstanceError(target) }
        // As on an instance's own inspector, a resume value that is not an integer ≥ 0 is ignored.
        let resume = query["resume"].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
        return InstanceStream(view: view, instance: target, readOnly: readOnly, resume: resume)
    }

    public func attached(to hub: InspectorHub) {
        link.set(hub)
        view.onUpdate = { [link] in link.current?.wakeClients() }
        view.start()
    }
}
