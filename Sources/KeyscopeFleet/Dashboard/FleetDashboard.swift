public import KeyscopeInspector
public import KeyscopeProtocol

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
        ]
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
        return InstanceStream(view: view, instance: target, readOnly: readOnly)
    }

    public func attached(to hub: InspectorHub) {
        link.set(hub)
        view.onUpdate = { [link] in link.current?.wakeClients() }
        view.start()
    }
}
