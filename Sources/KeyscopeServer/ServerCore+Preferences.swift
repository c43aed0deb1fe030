import CLibWebSockets
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol

/// Which `/api/preferences` endpoint a request is for, read from its raw path (``RawRequestLine``): lws's decoded
/// path cannot tell `/api/preferences/userDefaults/com.shop/a%2Fb` from `…/com.shop/a/b`.
enum PreferenceRoute: Sendable, Hashable {
    /// `/api/preferences` itself (`GET`: the panel).
    case panel(method: String)
    /// `/api/preferences/…`: the still-encoded segments after `/api/preferences/` (`["refresh"]` for the rescan,
    /// three for `PUT` and `DELETE`).
    case item(method: String, segments: [Substring])
    /// lws's path is under `/api/preferences` but the raw one is not there to route by (it went there through dot
    /// segments or `//`, or it could not be read): refused, never guessed.
    case unreadable

    /// `nil` when the request is not for `/api/preferences` or below.
    init?(raw: RawRequestLine?, method: String, decodedPath: String) {
        if let raw, raw.method == method, raw.isPreferences {
            if let segments = raw.preferenceSegments {
                self = .item(method: method, segments: segments)
            } else {
                self = .panel(method: method)
            }
        } else if decodedPath == PreferencePath.root || decodedPath.hasPrefix(PreferencePath.root + "/") {
            self = .unreadable
        } else {
            return nil
        }
    }
}

/// The preference and watch endpoints (docs/preferences.md): `GET /api/preferences`,
/// `PUT` and `DELETE /api/preferences/:source/:container/:key`, `POST /api/preferences/refresh`, `GET /api/watches`
/// and `POST /api/watches/refresh`.
extension ServerCore {
    /// A request for `/api/preferences` or below, after the token check.
    func servePreferences(_ wsi: OpaquePointer, _ request: LwsRequest, _ route: PreferenceRoute) -> Int32 {
        switch route {
        case .panel(method: "GET"):
            do {
                return LwsResponse.json(wsi, try hub.preferencesPanel().jsonBytes(sortedKeys: true))
            } catch {
                return hubError(wsi, error)
            }
        case .panel:
            return methodNotAllowed(wsi, PreferencePath.root, allow: "GET")
        case .item(let method, let segments) where segments == ["refresh"]:
            guard method == "POST" else { return methodNotAllowed(wsi, PreferencePath.refresh, allow: "POST") }
            return beginOptionalBody(wsi, request, for: .preferencesRefresh)
        case .item(method: "PUT", let segments):
            if options.readOnly { return hubError(wsi, RequestExecutor.readOnlyError) }
            do {
                return beginBody(wsi, request, for: .preference(try PreferencePath.ref(segments: segments)))
            } catch {
                return hubError(wsi, error)
            }
        case .item(method: "DELETE", let segments):
            if options.readOnly { return hubError(wsi, RequestExecutor.readOnlyError) }
            do {
                let seq = try hub.deletePreference(try PreferencePath.ref(segments: segments))
                return LwsResponse.json(wsi, ServerMessages.seqResult(seq).jsonBytes(sortedKeys: true))
            } catch {
                return hubError(wsi, error)
            }
        case .item:
            return methodNotAllowed(wsi, PreferencePath.root + "/SOURCE/CONTAINER/KEY", allow: "PUT, DELETE")
        case .unreadable:
            return hubError(
                wsi,
                .badRequest(
                    "the path could not be read as it was sent; write it as \(PreferencePath.root)/SOURCE/CONTAINER/KEY "
                        + "with each segment percent-encoded and without dot segments or empty segments"))
        }
    }

    /// `PUT /api/preferences/…`, its body in: `{"value": …}` (VALUES.md JSON). Answers `{"seq":N}` (`null` when the
    /// value was already there).
    func setPreference(_ wsi: OpaquePointer, _ ref: PreferenceRef, _ body: [UInt8]) -> Int32 {
        do throws(HubError) {
            guard let parsed = try jsonBody(body) else {
                throw .badRequest(
                    "the body is empty; send {\"value\": …} with the preference's new value (Content-Type: "
                        + "application/json)")
            }
            guard case .object(let members) = parsed else {
                throw .badRequest(
                    "the body must be a JSON object {\"value\": …} with the preference's new value, not "
                        + parsed.typeName)
            }
            guard let value = members["value"] else {
                throw .badRequest("the body needs \"value\": {\"value\": …} with the preference's new value")
            }
            let seq = try hub.updatePreference(ref, value: value)
            return LwsResponse.json(wsi, ServerMessages.seqResult(seq).jsonBytes(sortedKeys: true))
        } catch {
            return hubError(wsi, error)
        }
    }

    /// `GET /api/watches`: what the dashboard's Watches panel shows.
    func watchesPanel(_ wsi: OpaquePointer) -> Int32 {
        do {
            return LwsResponse.json(wsi, try hub.watchesPanel().jsonBytes(sortedKeys: true))
        } catch {
            return hubError(wsi, error)
        }
    }

    /// `POST /api/preferences/refresh` and `POST /api/watches/refresh` (allowed on a read-only server: they only
    /// read), its body (if any) in: it must be empty or `{}`. Answers `{"seq":null}` for preferences, `{"ok":true}`
    /// for watches.
    func runRefresh(_ wsi: OpaquePointer, _ purpose: PendingBody.Purpose, _ body: [UInt8]) -> Int32 {
        let path = purpose == .watchesRefresh ? PreferencePath.watchesRefresh : PreferencePath.refresh
        do throws(HubError) {
            if let parsed = try jsonBody(body), parsed != .emptyObject {
                throw .badRequest("POST \(path) takes no body, or {}; it got \(parsed.typeName)")
            }
            if purpose == .watchesRefresh {
                try hub.refreshWatches()
                return LwsResponse.json(wsi, StoreValue.object(["ok": true]).jsonBytes(sortedKeys: true))
            }
            try hub.refreshPreferences()
            return LwsResponse.json(wsi, ServerMessages.seqResult(nil).jsonBytes(sortedKeys: true))
        } catch {
            return hubError(wsi, error)
        }
    }

    /// Whether the request announces a body: a `Content-Length` other than 0, or a `Transfer-Encoding`.
    static func hasBody(_ request: LwsRequest) -> Bool {
        if let length = request.value(WSI_TOKEN_HTTP_CONTENT_LENGTH) {
            return Int(length.trimmingJSONSpace) != 0
        }
        return request.value(WSI_TOKEN_HTTP_TRANSFER_ENCODING) != nil
    }

    /// The JSON of a body (for the JSON routes: preferences, recordings, rewind); `nil` when it is empty (or only
    /// white space). Invalid JSON is `bad_json`.
    func jsonBody(_ body: [UInt8]) throws(HubError) -> StoreValue? {
        guard body.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else { return nil }
        do {
            return try JanssonCodec.decode(body, maxDepth: options.maxJSONDepth)
        } catch {
            throw HubError(code: .badJSON, message: "the body is not valid JSON: \(error)")
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingJSONSpace: Substring {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}
