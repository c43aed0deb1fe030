import KeyscopeCore
import KeyscopeProtocol
import KeyscopeServer

/// A feature route carried from a fleet dashboard to one instance (docs/fleet.md "Feature panels through the
/// fleet"): `{"type": "fleet.route", "method": "PUT", "path": "/tune/toolbar_height/64", "query": {…}, "body": …}`,
/// answered `{"type": "reply", "ok": true, "result": {"status": 200, "body": …}}` or with the route's error.
enum FleetRouteRequest {
    /// The request's `type`.
    static let type = "fleet.route"

    /// The request object the dashboard sends for `route`.
    static func encode(_ route: CarriedRoute) -> [UInt8] {
        var members: [String: StoreValue] = [
            "type": .string(type), "method": .string(route.method), "path": .string(route.path),
            "query": .object(route.query.mapValues(StoreValue.string)),
        ]
        if let body = route.body { members["body"] = body }
        return StoreValue.object(members).jsonBytes(sortedKeys: true)
    }

    /// The route a request object names; `nil` when it is not a carried route (another request type).
    static func decode(_ object: [String: StoreValue]) -> Result<CarriedRoute, HubError>? {
        guard object["type"] == .string(type) else { return nil }
        guard case .string(let method)? = object["method"], case .string(let path)? = object["path"],
            path.hasPrefix("/")
        else { return .failure(.badRequest("a fleet.route request needs a \"method\" and a \"path\" starting with /")) }
        var query: [String: String] = [:]
        if case .object(let members)? = object["query"] {
            for (name, value) in members { if case .string(let text) = value { query[name] = text } }
        }
        return .success(CarriedRoute(method: method, path: path, query: query, body: object["body"]))
    }

    /// The instance's reply to a carried route: its answer as `result`, or its refusal.
    static func reply(_ result: Result<(status: Int, body: [UInt8]), HubError>) -> [UInt8] {
        switch result {
        case .success(let answer):
            var bytes = Array(#"{"ok":true,"result":{"body":"#.utf8)
            bytes += answer.body.isEmpty ? Array("null".utf8) : answer.body
            bytes += Array(#","status":\#(answer.status)},"type":"reply"}"#.utf8)
            return bytes
        case .failure(let error):
            return StoreValue.object([
                "type": "reply", "ok": false,
                "error": .object(["code": .string(error.code.rawValue), "message": .string(error.message)]),
            ]).jsonBytes(sortedKeys: true)
        }
    }
}
