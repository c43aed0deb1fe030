import KeyscopeInspector
import KeyscopeProtocol

/// A request line exactly as the client sent it (``RequestLineCapture``), nothing decoded: `METHOD TARGET VERSION`.
///
/// ```swift
/// let line = RawRequestLine(Array("PUT /tune/a%2Fb/5?token=T HTTP/1.1".utf8))
/// line?.path            // "/tune/a%2Fb/5"
/// line?.tuneSegments    // ["a%2Fb", "5"]
/// ```
struct RawRequestLine: Sendable, Hashable {
    let method: String
    /// The target up to its `?` (without the query), still percent-encoded.
    let path: String

    /// `nil` when the line is not three parts separated by single spaces, or not UTF-8.
    init?(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, text.utf8.elementsEqual(bytes) else {
            return nil
        }
        method = String(parts[0])
        path = String(parts[1].prefix { $0 != "?" })
    }

    /// Whether the path is `/tune` or under it (the routes that read the raw path).
    var isTune: Bool { isAt(TunePath.root) }

    /// The still-encoded segments after `/tune/` (`/tune/k/v` → `["k", "v"]`, `/tune/` → `[""]`); `nil` for `/tune`
    /// itself and for paths not under it.
    var tuneSegments: [Substring]? { segments(under: TunePath.root) }

    /// Whether the path is `/api/preferences` or under it (the preference routes also read the raw path).
    var isPreferences: Bool { isAt(PreferencePath.root) }

    /// The still-encoded segments after `/api/preferences/` (`…/userDefaults/com.shop/a%2Fb` →
    /// `["userDefaults", "com.shop", "a%2Fb"]`); `nil` for `/api/preferences` itself and for paths not under it.
    var preferenceSegments: [Substring]? { segments(under: PreferencePath.root) }

    /// Why a `/tune/…` or `/api/preferences/…` path cannot be decoded (a bad escape, a control character, not
    /// UTF-8): lws could not pass such a request on intact, so the server refuses it as soon as it sees the line.
    /// `nil` when the path is fine or under neither.
    var undecodableSegment: HubError? {
        do throws(HubError) {
            for segment in tuneSegments ?? [] { _ = try TunePath.decode(segment: segment) }
            for segment in preferenceSegments ?? [] { _ = try PreferencePath.decode(segment: segment) }
        } catch {
            return error
        }
        return nil
    }

    /// Whether the path is `root` or under it.
    private func isAt(_ root: String) -> Bool { path == root || path.hasPrefix(root + "/") }

    /// The still-encoded segments after `root/`; `nil` for `root` itself and for paths not under it.
    private func segments(under root: String) -> [Substring]? {
        guard path.hasPrefix(root + "/") else { return nil }
        return path.dropFirst(root.count + 1).split(separator: "/", omittingEmptySubsequences: false)
    }
}
