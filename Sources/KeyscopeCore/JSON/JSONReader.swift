public import Foundation

/// A strict single-pass JSON reader producing StoreValues (VALUES.md), over a borrowed UTF-8 buffer.
struct JSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    /// Where reading is: the byte after the last one read.
    private(set) var position: Int
    private var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, position: Int = 0) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.position = position
    }

    mutating func readDocument() throws(StoreValueJSONError) -> StoreValue {
        skipWhitespace()
        let value = try readValue()
        skipWhitespace()
        guard position == bytes.count else { throw error("unexpected text after the JSON value") }
        return value
    }

    /// One value at ``position`` (after any whitespace), leaving ``position`` just past it: for readers of larger
    /// documents that take their values from this reader (the log line decoder).
    mutating func readEmbeddedValue() throws(StoreValueJSONError) -> StoreValue {
        skipWhitespace()
        return try readValue()
    }

    private func error(_ reason: String, at offset: Int? = nil) -> StoreValueJSONError {
        StoreValueJSONError(offset: offset ?? position, reason: reason)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func readValue() throws(StoreValueJSONError) -> StoreValue {
        guard position < bytes.count else { throw error("expected a value, the text ended") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw error("expected a value")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(StoreValueJSONError) {
        var offset = position
        for byte in literal.utf8 {
            guard offset < bytes.count, bytes[offset] == byte else { throw error("expected \(literal)") }
            offset += 1
        }
        position = offset
    }

    private mutating func enter() throws(StoreValueJSONError) {
        depth += 1
        if depth > maxDepth { throw error("nesting is deeper than \(maxDepth) levels") }
    }

    private mutating func readArray() throws(StoreValueJSONError) -> StoreValue {
        try enter()
        position += 1
        var elements: [StoreValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try readValue())
            skipWhitespace()
            guard position < bytes.count else { throw error("unterminated array") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                depth -= 1
                return .array(elements)
            default: throw error("expected \",\" or \"]\" in an array")
            }
        }
    }

    private mutating func readObject() throws(StoreValueJSONError) -> StoreValue {
        try enter()
        let start = position
        position += 1
        var members: [String: StoreValue] = [:]
        // Only a one-key object can be a tagged value, so only the first key is kept as written.
        var firstRawKey: String?
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a quoted key in an object")
            }
            let keyOffset = position
            let rawKey = try readString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("expected \":\" after an object key")
            }
            position += 1
            skipWhitespace()
            let value = try readValue()
            // `$`-escaping: a stored key that starts with `$` is written with one more `$`.
            // Drop the `$` as a scalar: `dropFirst()` would drop a whole grapheme (`$` plus a combining mark).
            let key = rawKey.utf8.first == UInt8(ascii: "$") ? String(rawKey.unicodeScalars.dropFirst()) : rawKey
            skipWhitespace()
            if firstRawKey == nil {
                firstRawKey = rawKey
                // Room for a few members at once when more follow (growing 1, 2, 4 rehashes twice); exactly one
                // otherwise (tagged values, and small objects, stay small in the state).
                members.reserveCapacity(position < bytes.count && bytes[position] == UInt8(ascii: ",") ? 4 : 1)
            }
            if members.updateValue(value, forKey: key) != nil {
                throw error("duplicate key \"\(rawKey)\" in an object", at: keyOffset)
            }
            guard position < bytes.count else { throw error("unterminated object") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                depth -= 1
                if members.count == 1, let tag = firstRawKey, tag.utf8.first == UInt8(ascii: "$"),
                    let value = members.first?.value,
                    let tagged = try Self.tagged(tag, value, offset: start)
                {
                    return tagged
                }
                return .object(members)
            default: throw error("expected \",\" or \"}\" in an object")
            }
        }
    }

    /// A one-key object whose key is `$number`, `$color` or `$url` is that tagged value; its payload must be valid.
    private static func tagged(_ tag: String, _ payload: StoreValue, offset: Int) throws(StoreValueJSONError)
        -> StoreValue?
    {
        switch tag {
        case "$number":
            switch payload.stringValue {
            case "nan": return .number(.nan)
            case "inf": return .number(.infinity)
            case "-inf": return .number(-.infinity)
            default:
                throw StoreValueJSONError(offset: offset, reason: "$number must be \"nan\", \"inf\" or \"-inf\"")
            }
        case "$color":
            guard let text = payload.stringValue, let color = StoreColor(text) else {
                throw StoreValueJSONError(offset: offset, reason: "$color must be \"#RRGGBB\" or \"#RRGGBBAA\"")
            }
            return .color(color)
        case "$url":
            guard let text = payload.stringValue, let url = StoreValue.absoluteURL(text) else {
                throw StoreValueJSONError(offset: offset, reason: "$url must be an absolute URL")
            }
            return .url(url)
        default:
            return nil
        }
    }

    // MARK: Numbers

    private mutating func readNumber() throws(StoreValueJSONError) -> StoreValue {
        try JSONNumber.read(bytes, at: &position)
    }

    // MARK: Strings

    private mutating func readString() throws(StoreValueJSONError) -> String {
        position += 1  // opening quote
        let start = position
        // Fast path: no escapes, all validation done by the UTF-8 decoder below (none is needed when every byte is
        // ASCII, as in nearly all keys).
        var high: UInt8 = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return high < 0x80 ? String(decoding: slice, as: UTF8.self) : try validatedUTF8(slice, at: start)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("a control character must be escaped in a string") }
            high |= byte
            position += 1
        }
        var scalars = String.UnicodeScalarView()
        scalars.append(
            contentsOf: try validatedUTF8(UnsafeBufferPointer(rebasing: bytes[start..<position]), at: start)
                .unicodeScalars)
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                scalars.append(try readEscape())
            default:
                if byte < 0x20 { throw error("a control character must be escaped in a string") }
                let runStart = position
                while position < bytes.count, bytes[position] != UInt8(ascii: "\""),
                    bytes[position] != UInt8(ascii: "\\"),
                    bytes[position] >= 0x20
                {
                    position += 1
                }
                let run = try validatedUTF8(UnsafeBufferPointer(rebasing: bytes[runStart..<position]), at: runStart)
                scalars.append(contentsOf: run.unicodeScalars)
            }
        }
        throw error("unterminated string")
    }

    private func validatedUTF8(_ slice: UnsafeBufferPointer<UInt8>, at offset: Int) throws(StoreValueJSONError)
        -> String
    {
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw error("the text is not valid UTF-8", at: offset)
        }
        return text
    }

    private mutating func readEscape() throws(StoreValueJSONError) -> Unicode.Scalar {
        let escapeStart = position
        position += 1
        guard position < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try readHex4(escapeStart)
            if (0xD800...0xDBFF).contains(high) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw error("a lone surrogate escape is not a character", at: escapeStart) }
                position += 2
                let low = try readHex4(escapeStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("a lone surrogate escape is not a character", at: escapeStart)
                }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else {
                throw error("a lone surrogate escape is not a character", at: escapeStart)
            }
            return scalar
        default:
            throw error("unknown escape", at: escapeStart)
        }
    }

    private mutating func readHex4(_ escapeStart: Int) throws(StoreValueJSONError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("\\u needs four hex digits", at: escapeStart) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw error("\\u needs four hex digits", at: escapeStart)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}

extension StoreValue {
    /// An absolute URL (one with a scheme) whose text is exactly `text`, or `nil`: what a `$url` payload must be.
    public static func absoluteURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty,
            url.absoluteString == text
        else { return nil }
        return url
    }
}
