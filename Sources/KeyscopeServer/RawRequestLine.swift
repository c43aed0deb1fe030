/// A request line exactly as the client sent it (``RequestHeadCapture``), nothing decoded: `METHOD TARGET VERSION`.
///
/// ```swift
/// let line = RawRequestLine(Array("PUT /x/a%2Fb/5?token=T HTTP/1.1".utf8))
/// line?.path            // "/x/a%2Fb/5"
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
}
