public import KeyscopeCore
public import KeyscopeInspector
public import KeyscopeProtocol

/// What ``PreferencesFeature`` serves: its HTTP routes and the WebSocket `preference` request.
extension PreferencesFeature {
    public var routes: [FeatureRoute] {
        let asSent = FeatureRoute.PathForm.asSent(advice: "send such a key with the WebSocket preference request")
        let item = PreferencePath.root + "/*"
        // Revealed secrets never cross a fleet's Redis: such an instance's panel is not carried at all.
        let crossesFleet = !(endpoint?.revealsSecrets ?? false)
        return [
            FeatureRoute(.get, PreferencePath.root, crossesFleet: crossesFleet) { [unowned self] _ throws(HubError) in
                .json(try panel())
            },
            FeatureRoute(.post, PreferencePath.refresh, body: .optionalJSON, crossesFleet: crossesFleet) {
                [unowned self] request throws(HubError) in
                try Self.refuseBody(request.body, of: PreferencePath.refresh)
                try refresh()
                return .json(InspectorProtocol.seqResult(nil))
            },
            FeatureRoute(.put, item, body: .json, writes: true, pathForm: asSent, crossesFleet: crossesFleet) {
                [unowned self] request throws(HubError) in
                let ref = try PreferencePath.ref(segments: request.rest)
                return .json(InspectorProtocol.seqResult(try update(ref, value: try Self.value(inBody: request.body))))
            },
            FeatureRoute(.delete, item, writes: true, pathForm: asSent, crossesFleet: crossesFleet) {
                [unowned self] request throws(HubError) in
                .json(InspectorProtocol.seqResult(try delete(try PreferencePath.ref(segments: request.rest))))
            },
        ]
    }

    public var requests: [FeatureRequest] {
        [
            // A refresh only reads the sources: allowed on a read-only server.
            FeatureRequest("preference", writes: .when({ $0.peekString("op") != "refresh" })) {
                [unowned self] members throws(HubError) in
                let ops = "set, delete or refresh"
                let op = try members.string("op", hint: ops)
                switch op {
                case "set":
                    let ref = try Self.ref(members)
                    guard let value = try members.value() else {
                        throw .badRequest("a preference set needs \"value\": the preference's new value")
                    }
                    return InspectorProtocol.seqResult(try update(ref, value: value))
                case "delete":
                    let ref = try Self.ref(members)
                    guard !members.has("value") else {
                        throw .badRequest("a preference delete takes no \"value\"; remove it, or use op set")
                    }
                    return InspectorProtocol.seqResult(try delete(ref))
                case "refresh":
                    let extra = ["source", "container", "key", "value"].filter(members.has)
                    guard extra.isEmpty else {
                        throw .badRequest(
                            "a preference refresh rescans every source and takes no "
                                + extra.map { "\"\($0)\"" }.joined(separator: ", ") + "; remove it")
                    }
                    try refresh()
                    return InspectorProtocol.seqResult(nil)
                default:
                    throw .badRequest("unknown preference op \"\(op)\"; use \(ops)")
                }
            }
        ]
    }

    /// The `source`, `container` and `key` of a preference set or delete.
    private static func ref(_ members: RequestMembers) throws(HubError) -> PreferenceRef {
        let sources = PreferenceSource.allCases.map(\.rawValue).joined(separator: " or ")
        let source = try PreferencePath.source(named: try members.string("source", hint: sources))
        let container = try members.string("container", hint: "the UserDefaults suite or the secret service")
        let key = try members.string("key", hint: "the preference's key, or the secret's account")
        return try PreferencePath.ref(source: source, container: container, key: key)
    }

    /// The `value` of `PUT /api/preferences/…`'s body `{"value": …}`.
    private static func value(inBody body: StoreValue?) throws(HubError) -> StoreValue {
        guard let body else {
            throw .badRequest(
                "the body is empty; send {\"value\": …} with the preference's new value (Content-Type: "
                    + "application/json)")
        }
        guard case .object(let members) = body else {
            throw .badRequest(
                "the body must be a JSON object {\"value\": …} with the preference's new value, not " + body.typeName)
        }
        guard let value = members["value"] else {
            throw .badRequest("the body needs \"value\": {\"value\": …} with the preference's new value")
        }
        return value
    }

    /// A trigger's body must be empty or `{}`.
    static func refuseBody(_ body: StoreValue?, of path: String) throws(HubError) {
        if let body, body != .emptyObject {
            throw .badRequest("POST \(path) takes no body, or {}; it got \(body.typeName)")
        }
    }

}
