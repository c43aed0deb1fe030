public import KeyscopeCore
public import KeyscopeInspector
public import KeyscopeProtocol

/// What ``TunablesFeature`` serves: its HTTP routes and its WebSocket request.
extension TunablesFeature {
    public var routes: [FeatureRoute] {
        let advice = FeatureRoute.PathForm.asSent(
            advice: "send such a value with POST /tune or the WebSocket tune request")
        return [
            FeatureRoute(.get, TunePath.root) { [unowned self] _ throws(HubError) in
                .json(.object(try values()))
            },
            FeatureRoute(.post, TunePath.root, body: .json, writes: true) { [unowned self] request throws(HubError) in
                let values = try Self.tunables(inBody: request.body)
                let seq = try replaceAll(with: values)
                return .json(Self.success(seq, ["count": .integer(Int64(values.count))]))
            },
            FeatureRoute(.put, TunePath.root + "/*", writes: true, pathForm: advice) {
                [unowned self] request throws(HubError) in
                try set(segments: request.rest)
            },
            FeatureRoute(.delete, TunePath.root + "/*", writes: true, pathForm: advice) {
                [unowned self] request throws(HubError) in
                try remove(segments: request.rest)
            },
            FeatureRoute(.get, "/api/tunables") { [unowned self] _ throws(HubError) in .json(try panel()) },
        ]
    }

    /// `tune` (`op` `set`, the default, with a `value` or a `text` read as `PUT /tune/:key/:value` reads its value;
    /// `remove`; `replace` with `values`, as `POST /tune`), and `tunables`, which reads them all (as `GET /tune`):
    /// what a client that reaches the service only through its WebSocket (a fleet dashboard) needs.
    public var requests: [FeatureRequest] {
        [
            FeatureRequest("tune", writes: .always) { [unowned self] members throws(HubError) in
                let op = members.has("op") ? try members.string("op") : "set"
                switch op {
                case "set":
                    return try set(members)
                case "remove":
                    guard try members.value() == nil else {
                        throw .badRequest("a tune with \"op\": \"remove\" takes no \"value\"")
                    }
                    return InspectorProtocol.seqResult(try remove(key: try members.string("key")))
                case "replace":
                    let values = try Self.tunables(inBody: members.has("values") ? try members.required("values") : nil)
                    let seq = try replaceAll(with: values)
                    return Self.success(seq, ["count": .integer(Int64(values.count))])
                default:
                    throw .badRequest("unknown tune \"op\" \"\(op)\"; use set (the default), remove or replace")
                }
            },
            FeatureRequest("tunables", writes: .never) { [unowned self] _ throws(HubError) in
                .object(try values())
            },
        ]
    }

    /// A `tune` that sets one key: its `value`, or its `text` typed as the path form types it.
    private func set(_ members: RequestMembers) throws(HubError) -> StoreValue {
        let key = try members.string("key")
        if members.has("text") {
            guard try members.value() == nil else {
                throw .badRequest("a tune takes a \"value\" or a \"text\", not both")
            }
            let read = try TunePath.value(of: try members.string("text"))
            let value = endpoint?.interpretPathValue(read, forKey: key) ?? read
            return Self.success(try tune(key: key, value: value), ["key": .string(key), "value": value])
        }
        guard let value = try members.value() else { throw .badRequest("tune needs a \"value\" (or a \"text\")") }
        return InspectorProtocol.seqResult(try tune(key: key, value: value))
    }

    /// `PUT /tune/:key/:value`, from the segments as sent: the key is the first, the value the rest of the path
    /// (docs/protocol.md: it may hold `/`, sent as is or as `%2F`). Answers `{"key":…,"ok":true,"seq":N,"value":…}`, with
    /// the value the text stood for (typed by the key: ``TunablesEndpoint/interpretPathValue(_:forKey:)``).
    private func set(segments: [String]) throws(HubError) -> FeatureRoute.Response {
        guard segments.count >= 2 else {
            throw .badRequest(
                "PUT /tune/KEY/VALUE needs a key and a value after /tune (the value is the rest of the path, which "
                    + "may hold /); got \(segments.count) segment")
        }
        let key = try TunePath.decode(segment: segments[0])
        guard !key.isEmpty else { throw .badRequest("the key is empty: PUT /tune/KEY/VALUE") }
        // The path grammar gives numbers and strings; the endpoint types them by the key (a color, a bool…).
        let read = try TunePath.value(of: try TunePath.decode(segment: segments.dropFirst().joined(separator: "/")))
        let value = endpoint?.interpretPathValue(read, forKey: key) ?? read
        let seq = try tune(key: key, value: value)
        return .json(Self.success(seq, ["key": .string(key), "value": value]))
    }

    /// `DELETE /tune/:key`. Answers `{"key":…,"ok":true,"seq":N}`.
    private func remove(segments: [String]) throws(HubError) -> FeatureRoute.Response {
        guard segments.count == 1 else {
            throw .badRequest(
                "DELETE /tune/KEY takes exactly one path segment after /tune, got \(segments.count); "
                    + "percent-encode what the key holds")
        }
        let key = try TunePath.decode(segment: segments[0])
        return .json(Self.success(try remove(key: key), ["key": .string(key)]))
    }

    /// The body of `POST /tune`: a JSON object of tunables.
    private static func tunables(inBody body: StoreValue?) throws(HubError) -> [String: StoreValue] {
        guard let body else {
            throw HubError(
                code: .badJSON, message: "the body is empty; send a JSON object of tunables ({\"KEY\": VALUE, …})")
        }
        guard case .object(let values) = body else {
            throw HubError(
                code: .badJSON,
                message: "the body must be a JSON object of tunables ({\"KEY\": VALUE, …}), not " + body.typeName)
        }
        return values
    }

    /// `{"ok":true,"seq":N}` (`null` when nothing changed) plus `extra`.
    private static func success(_ seq: Int?, _ extra: [String: StoreValue]) -> StoreValue {
        var members = extra
        members["ok"] = true
        members["seq"] = seq.map { .integer(Int64($0)) } ?? .null
        return .object(members)
    }

}
