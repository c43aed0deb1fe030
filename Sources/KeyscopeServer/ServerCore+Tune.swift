import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol

/// Which `/tune` endpoint a request is for, read from its raw path (``RawRequestLine``): lws's decoded path
/// cannot tell `/tune/a%2Fb/5` from `/tune/a/b/5`.
enum TuneRoute: Sendable, Hashable {
    /// `/tune` itself (`GET`, `POST`).
    case all(method: String)
    /// `/tune/…`: the still-encoded segments after `/tune/` (`PUT` wants exactly two, `DELETE` one).
    case one(method: String, segments: [Substring])
    /// lws's path is under `/tune` but the raw one is not there to route by (it went there through dot segments,
    /// or it could not be read): refused, never guessed.
    case unreadable

    /// `nil` when the request is not for `/tune` or below.
    init?(raw: RawRequestLine?, method: String, decodedPath: String) {
        if let raw, raw.method == method, raw.isTune {
            if let segments = raw.tuneSegments {
                self = .one(method: method, segments: segments)
            } else {
                self = .all(method: method)
            }
        } else if decodedPath == TunePath.root || decodedPath.hasPrefix(TunePath.root + "/") {
            self = .unreadable
        } else {
            return nil
        }
    }
}

/// The tunables endpoints: `GET /tune`, `PUT /tune/:key/:value`, `DELETE /tune/:key`, `POST /tune` and
/// `GET /api/tunables`.
extension ServerCore {
    /// A request for `/tune` or below, after the token check.
    func serveTune(_ wsi: OpaquePointer, _ request: LwsRequest, _ route: TuneRoute) -> Int32 {
        switch route {
        case .all(method: "GET"):
            do {
                return LwsResponse.json(wsi, StoreValue.object(try hub.tunableValues()).jsonBytes(sortedKeys: true))
            } catch {
                return hubError(wsi, error)
            }
        case .all(method: "POST"):
            return beginBody(wsi, request, for: .tunables)
        case .all:
            return methodNotAllowed(wsi, TunePath.root, allow: "GET, POST")
        case .one(method: "PUT", let segments):
            return setTunable(wsi, segments)
        case .one(method: "DELETE", let segments):
            return removeTunable(wsi, segments)
        case .one:
            return methodNotAllowed(wsi, TunePath.root + "/KEY/VALUE", allow: "PUT, DELETE")
        case .unreadable:
            return hubError(
                wsi,
                .badRequest(
                    "the path could not be read as it was sent; write it as /tune/KEY/VALUE with each segment "
                        + "percent-encoded and without dot segments"))
        }
    }

    /// `PUT /tune/:key/:value`: read-only first, then the segments, then the hub (the endpoint's schema, the store).
    /// Answers `{"key":…,"ok":true,"seq":N,"value":…}`, with the value the text stood for (typed by the key:
    /// ``TunablesEndpoint/interpretPathValue(_:forKey:)``).
    private func setTunable(_ wsi: OpaquePointer, _ segments: [Substring]) -> Int32 {
        if options.readOnly { return hubError(wsi, RequestExecutor.readOnlyError) }
        do throws(HubError) {
            guard segments.count == 2 else {
                throw .badRequest(
                    "PUT /tune/KEY/VALUE takes exactly two path segments after /tune, got \(segments.count); "
                        + "percent-encode a / inside the value as %2F (a key holds no /)")
            }
            let key = try TunePath.decode(segment: segments[0])
            guard !key.isEmpty else { throw .badRequest("the key is empty: PUT /tune/KEY/VALUE") }
            // The path grammar gives numbers and strings; the endpoint types them by the key (a color, a bool…).
            let read = try TunePath.value(of: try TunePath.decode(segment: segments[1]))
            let value = hub.tunables?.interpretPathValue(read, forKey: key) ?? read
            let seq = try hub.tune(key: key, value: value)
            return LwsResponse.json(
                wsi, Self.success(seq, ["key": .string(key), "value": value]).jsonBytes(sortedKeys: true))
        } catch {
            return hubError(wsi, error)
        }
    }

    /// `DELETE /tune/:key`: read-only first, then the one segment, then the hub. Answers `{"key":…,"ok":true,"seq":N}`.
    private func removeTunable(_ wsi: OpaquePointer, _ segments: [Substring]) -> Int32 {
        if options.readOnly { return hubError(wsi, RequestExecutor.readOnlyError) }
        do throws(HubError) {
            guard segments.count == 1 else {
                throw .badRequest(
                    "DELETE /tune/KEY takes exactly one path segment after /tune, got \(segments.count); "
                        + "percent-encode what the key holds")
            }
            let key = try TunePath.decode(segment: segments[0])
            let seq = try hub.removeTunable(key: key)
            return LwsResponse.json(wsi, Self.success(seq, ["key": .string(key)]).jsonBytes(sortedKeys: true))
        } catch {
            return hubError(wsi, error)
        }
    }

    /// `POST /tune`, its body in: a JSON object that replaces every tunable. Answers
    /// `{"count":N,"ok":true,"seq":N}` (`count`: how many tunables the new set has).
    func replaceTunables(_ wsi: OpaquePointer, _ body: [UInt8]) -> Int32 {
        do throws(HubError) {
            let parsed: StoreValue
            do {
                parsed = try JanssonCodec.decode(body, maxDepth: options.maxJSONDepth)
            } catch {
                throw HubError(code: .badJSON, message: "the body is not valid JSON: \(error)")
            }
            guard case .object(let values) = parsed else {
                throw HubError(
                    code: .badJSON,
                    message: "the body must be a JSON object of tunables ({\"KEY\": VALUE, …}), not "
                        + parsed.typeName)
            }
            let seq = try hub.replaceTunables(with: values)
            return LwsResponse.json(
                wsi, Self.success(seq, ["count": .integer(Int64(values.count))]).jsonBytes(sortedKeys: true))
        } catch {
            return hubError(wsi, error)
        }
    }

    /// `GET /api/tunables`: what the dashboard's Tunables panel shows.
    func tunablesPanel(_ wsi: OpaquePointer) -> Int32 {
        do {
            return LwsResponse.json(wsi, try hub.tunablesPanel().jsonBytes(sortedKeys: true))
        } catch {
            return hubError(wsi, error)
        }
    }

    /// `{"ok":true,"seq":N}` (`null` when nothing changed) plus `extra`.
    private static func success(_ seq: Int?, _ extra: [String: StoreValue]) -> StoreValue {
        var members = extra
        members["ok"] = true
        members["seq"] = seq.map { .integer(Int64($0)) } ?? .null
        return .object(members)
    }
}
