/// The Host and Origin rules as refusals of an lws request, for every listener (the inspector and the conformance
/// echo).
extension HostPolicy {
    /// The Host rule (checked before anything else): `nil` when the request may go on.
    package func hostRefusal(_ request: LwsRequest) -> Refusal? {
        switch checkHost(request.values(.host)) {
        case .allowed: nil
        case .forbidden(let message): Refusal(status: 403, code: "forbidden", message: message)
        case .malformed(let message): Refusal(status: 400, code: "bad_request", message: message)
        }
    }

    /// The Origin rule, for upgrades and non-GET requests: only a request that has an Origin is checked.
    package func originRefusal(_ request: LwsRequest) -> Refusal? {
        guard let origin = request.value(.origin), !allowsOrigin(origin) else { return nil }
        return Refusal(
            status: 403, code: "forbidden",
            message: "Origin \"\(origin)\" may not use this server; open the dashboard from this server, or start it "
                + "with --allow-origin \(origin)")
    }
}
