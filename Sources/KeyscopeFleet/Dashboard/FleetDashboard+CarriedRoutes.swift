import KeyscopeCore
public import KeyscopeInspector
import KeyscopeProtocol
import KeyscopeServer

/// The feature panels of one instance through the fleet dashboard (docs/fleet.md "Feature panels through the
/// fleet"): every request under the paths of the features' HTTP routes (tunables, preferences, watches), with
/// `?instance=ID`, is carried to that instance as a `fleet.route` request and answered with what its own inspector
/// answered: `GET /tune?instance=shop-2`, `PUT /tune/KEY/VALUE?instance=shop-2`, `GET /api/tunables?instance=…`.
///
/// The dashboard does not need to know the routes: the instance finds the route, checks it and answers 404 or
/// 405 itself. Each path is carried whole, as the client sent it, so that keys holding `%2F` arrive intact.
extension FleetDashboard {
    /// The paths whose requests are carried: each path itself and everything below it.
    static let carriedPaths = [TunePath.root, "/api/tunables", PreferencePath.root, PreferencePath.watches]

    var carriedRoutes: [FeatureRoute] {
        let advice = FeatureRoute.PathForm.asSent(advice: "percent-encode each segment of the path")
        var routes: [FeatureRoute] = []
        for path in Self.carriedPaths {
            for method in FeatureRoute.Method.allCases {
                let writes = method != .get
                let body: FeatureRoute.Body = writes ? .optionalJSON : .none
                for below in [false, true] {
                    routes.append(
                        FeatureRoute(
                            method, below ? path + "/*" : path, body: body, writes: writes,
                            pathForm: below ? advice : .decoded, readOnlyRefusal: Self.readOnlyRefusal
                        ) { [view, readOnly] request throws(HubError) in
                            if writes, readOnly { throw Self.readOnlyRefusal }
                            let sent = below ? path + "/" + request.rest.joined(separator: "/") : path
                            return try Self.carry(route: request, path: sent, view: view)
                        })
                }
            }
        }
        return routes
    }

    /// Carries one request to the instance its `instance` parameter names, and answers with the instance's answer.
    static func carry(route request: FeatureRoute.Request, path: String, view: FleetView) throws(HubError)
        -> FeatureRoute.Response
    {
        guard request.query["instance"] != "*" else {
            throw .badRequest(
                "\(request.method.rawValue) \(path) reaches one instance: name it with ?instance=ID; to change every "
                    + "instance, send a request to POST /api/request?instance=* (such as {\"type\":\"tune\",…})")
        }
        let id = try Self.instance(in: request, view: view)
        var query = request.query
        query["instance"] = nil
        let carried = CarriedRoute(method: request.method.rawValue, path: path, query: query, body: request.body)
        let bytes = FleetRouteRequest.encode(carried)
        return .later { respond in
            view.send(bytes, to: id) { reply in respond(Self.response(reply)) }
        }
    }

    /// The instance's answer as the dashboard's: the route's body and status, or the refusal with its code's status.
    private static func response(_ reply: [UInt8]) -> FeatureRoute.Response {
        guard let object = (try? StoreValue(jsonBytes: reply))?.objectValue else {
            return .json(errorBody(.unavailable, "the instance's answer could not be read"), status: 503)
        }
        if object["ok"] == .bool(true), let result = object["result"]?.objectValue,
            case .integer(let status)? = result["status"]
        {
            return .json(result["body"] ?? .null, status: Int(status))
        }
        let error = object["error"]?.objectValue ?? [:]
        let code = HubError.Code(rawValue: error["code"]?.stringValue ?? HubError.Code.unavailable.rawValue)
        return .json(errorBody(code, error["message"]?.stringValue ?? "the instance refused"), status: code.httpStatus)
    }

    private static func errorBody(_ code: HubError.Code, _ message: String) -> StoreValue {
        .object(["error": .object(["code": .string(code.rawValue), "message": .string(message)])])
    }
}
