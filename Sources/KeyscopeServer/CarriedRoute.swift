import Dispatch
public import Foundation
public import KeyscopeCore
public import KeyscopeInspector
public import KeyscopeProtocol
import Synchronization

/// A feature's HTTP route called without HTTP: how an instance answers a route that its fleet dashboard carried to
/// it through Redis (`GET /api/tunables?instance=ID`, `PUT /tune/KEY/VALUE?instance=ID`…, docs/fleet.md).
///
/// The route is found as the instance's own server would find it (the same table, the path as the client sent
/// it), and refused as it would be: on a read-only instance a route that writes answers `read_only`. Only feature
/// routes are carried (the server's own have fleet counterparts), and only those that may cross the fleet
/// (``FeatureRoute/crossesFleet``).
///
/// ```swift
/// let answer = CarriedRoute(method: "PUT", path: "/tune/toolbar_height/64").call(on: hub, readOnly: false)
/// // .success((status: 200, body: {"key":"toolbar_height","ok":true,"seq":41,"value":64}))
/// ```
public struct CarriedRoute: Sendable, Hashable {
    /// `GET`, `POST`, `PUT` or `DELETE`.
    public var method: String
    /// The path as the client sent it (still percent-encoded), without the query.
    public var path: String
    /// The query's parameters, percent-decoded (the fleet's own `instance` left out).
    public var query: [String: String]
    /// The JSON body, if any.
    public var body: StoreValue?

    /// How long a route that answers later (``FeatureRoute/Response/later(_:)``) is waited for: under the fleet
    /// dashboard's 5 s, so that an answer it will still take comes back.
    public static let laterWait = Duration.seconds(4)

    public init(method: String, path: String, query: [String: String] = [:], body: StoreValue? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
    }

    /// Runs the route on `hub`'s features: its answer's status and JSON body, or the refusal.
    public func call(on hub: InspectorHub, readOnly: Bool) -> Result<(status: Int, body: [UInt8]), HubError> {
        guard let methodCase = FeatureRoute.Method(rawValue: method) else {
            return .failure(.badRequest("a carried route's method is GET, POST, PUT or DELETE, not \(method)"))
        }
        let table = RouteTable(builtIn: [], features: hub.features)
        let decoded = path.removingPercentEncoding ?? path
        let raw = RawRequestLine(Array("\(method) \(path) HTTP/1.1".utf8))
        switch table.match(method: method, decodedPath: decoded, raw: raw) {
        case .route(let route, let rest):
            guard route.crossesFleet else {
                return .failure(
                    HubError(
                        code: .readOnly,
                        message: "\(method) \(route.displayPath) is not carried through the fleet (its answer may "
                            + "hold revealed secrets, which never reach Redis); open the instance's own dashboard"))
            }
            if route.writes, readOnly || hub.options.readOnly {
                return .failure(route.readOnlyRefusal ?? hub.readOnlyRefusal)
            }
            let takesBody = route.body != .none
            let call = ServerRoute.Call(
                method: methodCase, path: decoded, rest: rest, json: takesBody ? body : nil,
                bytes: takesBody ? body?.jsonBytes() ?? [] : [], query: query)
            return Self.settle(route.run(call))
        case .methodNotAllowed(let allow, let routePath):
            let methods = allow.map { $0 == "GET" ? "GET, HEAD" : $0 }.joined(separator: ", ")
            return .failure(
                HubError(
                    code: .methodNotAllowed,
                    message: "\(routePath) answers \(methods.replacingOccurrences(of: ", ", with: " and ")) only"))
        case .unreadable(let prefix):
            return .failure(
                .badRequest(
                    "the path could not be read as it was sent; write it under \(prefix) with each segment "
                        + "percent-encoded and without dot segments or empty segments"))
        case .notFound:
            return .failure(HubError(code: .notFound, message: "the instance has no endpoint \(method) \(path)"))
        }
    }

    /// A route's answer as status and bytes; one that answers later is waited for up to ``laterWait``.
    private static func settle(_ answer: ServerRoute.Answer) -> Result<(status: Int, body: [UInt8]), HubError> {
        switch answer {
        case .json(let value, let status): .success((status, value.jsonBytes(sortedKeys: true)))
        case .bytes(let bytes, let status): .success((status, bytes))
        case .error(let error): .failure(error)
        case .file:
            .failure(.badRequest("a file is not carried through the fleet; download it from the instance itself"))
        case .later(let start): waitFor(start)
        }
    }

    private static func waitFor(_ start: @Sendable (@escaping @Sendable (ServerRoute.Answer) -> Void) -> Void)
        -> Result<(status: Int, body: [UInt8]), HubError>
    {
        let box = LaterAnswer()
        start { answer in box.settle(answer) }
        guard let answer = box.wait(for: laterWait) else {
            return .failure(HubError(code: .unavailable, message: "the instance did not answer in time; try again"))
        }
        return settle(answer)
    }
}

/// The one answer of a route that answers later, waited for on the thread that carried it.
private final class LaterAnswer: Sendable {
    private let answer = Mutex<ServerRoute.Answer?>(nil)
    private let arrived = DispatchSemaphore(value: 0)

    func settle(_ answer: ServerRoute.Answer) {
        let first = self.answer.withLock { held in
            guard held == nil else { return false }
            held = answer
            return true
        }
        if first { arrived.signal() }
    }

    func wait(for duration: Duration) -> ServerRoute.Answer? {
        let (seconds, attoseconds) = duration.components
        _ = arrived.wait(timeout: .now() + Double(seconds) + Double(attoseconds) / 1e18)
        return answer.withLock { $0 }
    }
}
