import KeyscopeInspector

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
    var isTune: Bool { path == TunePath.root || path.hasPrefix(TunePath.root + "/") }

    /// The still-encoded segments after `/tune/` (`/tune/k/v` → `["k", "v"]`, `/tune/` → `[""]`); `nil` for `/tune`
    /// itself and for paths not under it.
    var tuneSegments: [Substring]? {
        guard path.hasPrefix(TunePath.root + "/") else { return nil }
        return path.dropFirst(TunePath.root.count + 1).split(separator: "/", omittingEmptySubsequences: false)
    }

    /// Why a `/tune/…` path cannot be decoded (a bad escape, a control character, not UTF-8): lws could not pass
    /// such a request on intact, so the server refuses it as soon as it sees the line. `nil` when the path is fine
    /// or not under `/tune/`.
    var undecodableTuneSegment: HubError? {
        for segment in tuneSegments ?? [] {
            do {
                _ = try TunePath.decode(segment: segment)
            } catch {
                return error
            }
        }
        return nil
    }
}
