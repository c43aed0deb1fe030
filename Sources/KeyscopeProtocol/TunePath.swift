public import KeyscopeCore

/// The path form of a tunable write, `PUT /tune/:key/:value` (docs/protocol.md): how a client writes the key and the
/// value as path segments, and how the server reads them back. Server and clients share this one implementation.
///
/// ```swift
/// TunePath.target(key: "accent", value: "#ff8800")        // "/tune/accent/%23ff8800"
/// try TunePath.decode(segment: "a%20b")                   // "a b"
/// try TunePath.value(of: "64")                            // .integer(64)
/// try TunePath.value(of: "0x10")                          // .string("0x10")
/// ```
/// - A segment is percent-decoded once: `%XX` (hex in either case) is that byte, every other character stands for
///   itself (`+` is a plus, not a space). The bytes must be UTF-8 without control characters (U+0000–U+001F,
///   U+007F): those cannot cross the server's HTTP parser intact, so they are refused rather than altered.
/// - The value is an integer when its text is a JSON number without fraction or exponent that fits Int64
///   (`5`, `-0`), a number when it is any other JSON number (`2.5`, `1e3`, `99999999999999999999`), and otherwise
///   the text itself as a string (`nan`, `0x10`, `+1`, `.5`, `#ff8800`, `true`, `` (empty)).
public enum TunePath {
    /// The path of all tunables: `GET /tune`, `POST /tune`.
    public static let root = "/tune"

    /// The request target that sets `key` to the value `value` stands for: `/tune/KEY/VALUE`, each percent-encoded
    /// as one segment with ``encode(segment:)``.
    public static func target(key: String, value: String) -> String {
        "\(root)/\(encode(segment: key))/\(encode(segment: value))"
    }

    /// Percent-encodes `text` as one path segment: every byte but the RFC 3986 unreserved characters
    /// (`A–Z a–z 0–9 - . _ ~`) is written `%XX` (upper-case hex), and the segments `.` and `..` have their dots
    /// escaped too, so that no client library or server resolves them as dot segments.
    public static func encode(segment text: String) -> String {
        let dotsOnly = text == "." || text == ".."
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            let unreserved =
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2D || byte == 0x5F || byte == 0x7E || (byte == 0x2E && !dotsOnly)
            if unreserved {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hexDigits[Int(byte >> 4)])
                out.unicodeScalars.append(hexDigits[Int(byte & 0xF)])
            }
        }
        return out
    }

    /// Decodes one percent-encoded segment (see the type's notes).
    ///
    /// - Throws: `bad_request` for a `%` not followed by two hex digits, for bytes that are not UTF-8, and for a
    ///   control character; the message names the segment.
    public static func decode(segment: some StringProtocol) throws(HubError) -> String {
        try PathSegment.decode(
            segment, controlCharacterAdvice: "send such a value with POST /tune or the WebSocket tune request")
    }

    /// The value a decoded `:value` segment stands for (see the type's notes).
    ///
    /// - Throws: `bad_request` for a JSON number too large for a double (`1e999`), which is refused rather than
    ///   turned into infinity.
    public static func value(of text: String) throws(HubError) -> StoreValue {
        guard let number = JSONNumberText(text) else { return .string(text) }
        if number.isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else {
            throw .badRequest("\(text) is a number too large for a double; send a smaller one")
        }
        return .number(double)
    }

    /// The longest tunable key, in UTF-8 bytes.
    public static let maxKeyBytes = 256

    /// Why `key` cannot be a tunable's key, or `nil` when it can. A key is 1 to ``maxKeyBytes`` bytes of UTF-8
    /// without `/` (it must fit one segment of `/tune/KEY/VALUE`) and without control characters (U+0000–U+001F,
    /// U+007F–U+009F: they cannot cross the HTTP parser, and an editor would not show them in the file). Every other
    /// key is allowed, dots and brackets included: a tunable key is one top-level key, never a key path.
    public static func keyProblem(_ key: String) -> String? {
        let shown = key.utf8.count > 40 ? "\(visible(key.prefix(40)))…" : visible(key)
        if key.isEmpty { return "a tunable key cannot be empty" }
        if key.utf8.count > maxKeyBytes {
            return "the key \(shown) is \(key.utf8.count) bytes long; a tunable key has at most \(maxKeyBytes)"
        }
        if key.contains("/") {
            return "the key \(shown) holds a \"/\", which no tunable key may (it could not be one /tune/KEY segment)"
        }
        if key.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "the key \(shown) holds a control character, which no tunable key may"
        }
        return nil
    }

    /// `key` quoted for a message, every control character written as an escape (`"c1\u{85}"`): Swift's
    /// `debugDescription` escapes C0 ones but leaves U+0080–U+009F as they are, invisible where the message is read.
    private static func visible(_ key: some StringProtocol) -> String {
        var out = ""
        for scalar in String(key).debugDescription.unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The rule ``keyProblem(_:)`` checks, in words, for error messages.
    public static let keyRule = "keys: 1 to \(maxKeyBytes) bytes, no \"/\", no control characters"

    /// Checks `key` with ``keyProblem(_:)``.
    ///
    /// - Throws: `bad_request` with the problem and the rule.
    public static func checkKey(_ key: String) throws(HubError) {
        if let problem = keyProblem(key) { throw .badRequest("\(problem) (\(keyRule))") }
    }

    private static let hexDigits = Array("0123456789ABCDEF".unicodeScalars)

}

/// Text that matches the JSON number grammar (RFC 8259): `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
struct JSONNumberText {
    /// No fraction and no exponent.
    let isInteger: Bool

    init?(_ text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            return nil
        }
        var integer = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return nil }
            integer = false
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { return nil }
            integer = false
        }
        guard index == bytes.count else { return nil }
        isInteger = integer
    }
}
