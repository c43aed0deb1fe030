import KeyscopeProtocol

/// What the server reads of a request head before lws parses it (``RequestHeadCapture``): the request line as sent,
/// and what lws 4.1 would drop the connection for without a word, so that the server can answer instead.
///
/// ```swift
/// let head = RequestHead(Array("GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)[...], limit: 16384)
/// head?.line          // "GET /api/health HTTP/1.1" (bytes)
/// head?.isTooLarge    // false
/// ```
struct RequestHead: Sendable, Hashable {
    /// The request line without CR LF; `nil` when it did not fit the limit.
    let line: [UInt8]?
    /// The head does not end within the header limit: lws would run out of header space and drop the connection.
    let isTooLarge: Bool
    /// The bytes of every `Sec-WebSocket-Extensions` value together (with a separator each): lws 4.1 drops a
    /// connection whose offers are over ``KeyscopeLws/ExtensionOffers/maxBytes``.
    let extensionOffersLength: Int

    /// Reads the head at the start of `bytes` (what a peek of the socket returned). `nil` while the head is not
    /// complete and may still be; a head over `limit` bytes is read as far as it goes and marked too large.
    init?(_ bytes: ArraySlice<UInt8>, limit: Int) {
        let end = Self.endOfHead(bytes)
        guard end != nil || bytes.count >= limit || Self.startsBroken(bytes) else { return nil }
        let head = bytes[..<(end ?? bytes.endIndex)]
        var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        let requestLine = lines.isEmpty ? nil : lines.removeFirst()
        let lineComplete = end != nil || requestLine.map({ $0.count < head.count }) == true
        self.line = lineComplete ? requestLine.map(Array.init) : nil
        self.isTooLarge = end == nil && bytes.count >= limit
        self.extensionOffersLength = lines.reduce(0) { total, line in
            total + (Self.value(of: "sec-websocket-extensions", in: line).map { $0.count + 2 } ?? 0)
        }
    }

    /// Why the request line cannot be read, if it cannot: not `METHOD /TARGET HTTP/1.x` (non-HTTP bytes such as a
    /// TLS hello, an unknown method, a target that does not start with `/`). lws 4.1 would answer those with an HTML
    /// 403 of its own.
    var lineProblem: String? {
        guard let line else { return isTooLarge ? nil : "the request line cannot be read" }
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, Self.methods.contains(String(decoding: parts[0], as: UTF8.self)),
            parts[1].first == UInt8(ascii: "/"), parts[2].starts(with: "HTTP/1.".utf8)
        else {
            return "the request line cannot be read: send METHOD /PATH HTTP/1.1 (GET, HEAD, POST, PUT or DELETE)"
        }
        return nil
    }

    /// The methods lws 4.1 parses (it refuses any other before the server sees the request).
    private static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "CONNECT"]

    /// Whether the bytes so far cannot begin a request line (a method is uppercase letters, then a space): no need
    /// to wait for more of them.
    private static func startsBroken(_ bytes: ArraySlice<UInt8>) -> Bool {
        for byte in bytes {
            if byte == UInt8(ascii: " ") { return false }
            if byte < UInt8(ascii: "A") || byte > UInt8(ascii: "Z") { return true }
        }
        return false
    }

    /// Why the request target cannot be read, if it cannot: a `%` not followed by two hex digits, or an escaped
    /// control character (`%00`–`%1F`, `%7F`). lws 4.1 answers the first with an HTML 403 of its own, drops the
    /// connection without a word for an escaped NUL, and ends the request line at an escaped line break.
    var targetProblem: String? {
        guard let line else { return nil }
        let parts = line.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        let target = Array(parts[1].prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") })
        var index = 0
        while index < target.count {
            defer { index += 1 }
            guard target[index] == UInt8(ascii: "%") else { continue }
            guard index + 2 < target.count, let high = PathSegment.hexValue(target[index + 1]),
                let low = PathSegment.hexValue(target[index + 2])
            else {
                return
                    "the path has a bad percent escape: % must be followed by two hex digits (write a % itself as %25)"
            }
            if high << 4 | low < 0x20 || high << 4 | low == 0x7F {
                let escape = String(decoding: target[index...index + 2], as: UTF8.self)
                return "the path holds an escaped control character (\(escape)), which no path may"
            }
            index += 2
        }
        return nil
    }

    /// The index just past the blank line that ends the head, if it is there.
    private static func endOfHead(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>.Index? {
        var newlines = 0
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "\n"):
                newlines += 1
                if newlines == 2 { return index + 1 }
            case UInt8(ascii: "\r"):
                continue
            default:
                newlines = 0
            }
        }
        return nil
    }

    /// The value of the header `name` (lowercase) in one header line, without surrounding spaces.
    private static func value(of name: String, in line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")),
            line.distance(from: line.startIndex, to: colon) == name.utf8.count
        else { return nil }
        let field = line[..<colon].map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        guard field.elementsEqual(name.utf8) else { return nil }
        var value = line[(colon + 1)...]
        while value.first == UInt8(ascii: " ") || value.first == UInt8(ascii: "\t") { value = value.dropFirst() }
        while value.last == UInt8(ascii: " ") || value.last == UInt8(ascii: "\t") { value = value.dropLast() }
        return value
    }
}
