/// The key-path grammar of docs/store.md, over Unicode scalars so that error columns count scalars.
///
/// The error column is the first scalar at which the text can no longer be the start of any valid path (one past
/// the end when it still could be): `items[01]` fails at the `1`, an overflowing index at the digit that overflows,
/// `\ud800` without a low surrogate at the scalar where `\` was needed. A parser in any language can agree on it.
enum KeyPathParser {
    static func parse(_ text: String) throws(KeyPathParseError) -> [StoreKeyPath.Segment] {
        try KeyPathCache.segments(of: text, parse: parseUncached)
    }

    static func parseUncached(_ text: String) throws(KeyPathParseError) -> [StoreKeyPath.Segment] {
        // Nearly every path a program writes is ASCII names and indexes: those are read straight from the bytes
        // (KeyPathParser+ASCII.swift). Anything else, errors included, takes the scalar parser below, which alone
        // decides what is valid and where an error is.
        if let segments = parseASCII(text) { return segments }
        return try parseScalars(text)
    }

    /// The whole grammar, scalar by scalar.
    static func parseScalars(_ text: String) throws(KeyPathParseError) -> [StoreKeyPath.Segment] {
        let scalars = Array(text.unicodeScalars)
        var position = 0
        var segments: [StoreKeyPath.Segment] = []

        func fail(_ reason: String, at index: Int) -> KeyPathParseError {
            KeyPathParseError(path: text, column: index + 1, reason: reason)
        }

        while position < scalars.count {
            let scalar = scalars[position]
            if scalar == "[" {
                segments.append(try parseBracket(scalars, &position, fail))
            } else if segments.isEmpty {
                segments.append(.key(try parseName(scalars, &position, fail)))
            } else if scalar == "." {
                position += 1
                segments.append(.key(try parseName(scalars, &position, fail)))
            } else {
                throw fail("expected \".\" or \"[\" after a segment", at: position)
            }
        }
        return segments
    }

    static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII first: no Unicode property lookups for the common case.
        if scalar.value < 0x80 {
            switch scalar.value {
            case 0x00...0x20, 0x7F, 0x2E, 0x5B, 0x5D, 0x22: return false  // controls, space, . [ ] "
            default: return true
            }
        }
        return switch scalar {
        case ".", "[", "]", "\"": false
        default: !scalar.properties.isWhitespace && !isControl(scalar)
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }

    private static func parseName(
        _ scalars: [Unicode.Scalar],
        _ position: inout Int,
        _ fail: (String, Int) -> KeyPathParseError
    ) throws(KeyPathParseError) -> String {
        let start = position
        while position < scalars.count, isNameScalar(scalars[position]) { position += 1 }
        guard position > start else {
            if position == scalars.count { throw fail("expected a name, the path ended", position) }
            throw fail("expected a name, found \"\(scalars[position])\"", position)
        }
        var name = String.UnicodeScalarView()
        name.append(contentsOf: scalars[start..<position])
        return String(name)
    }

    private static func parseBracket(
        _ scalars: [Unicode.Scalar],
        _ position: inout Int,
        _ fail: (String, Int) -> KeyPathParseError
    ) throws(KeyPathParseError) -> StoreKeyPath.Segment {
        position += 1  // "["
        guard position < scalars.count else {
            throw fail("expected an index or a quoted key, the path ended", position)
        }
        let segment: StoreKeyPath.Segment
        if scalars[position] == "\"" {
            segment = .key(try parseQuoted(scalars, &position, fail))
        } else {
            segment = .index(try parseIndex(scalars, &position, fail))
        }
        guard position < scalars.count else { throw fail("expected \"]\", the path ended", position) }
        guard scalars[position] == "]" else { throw fail("expected \"]\"", position) }
        position += 1
        return segment
    }

    private static func parseIndex(
        _ scalars: [Unicode.Scalar],
        _ position: inout Int,
        _ fail: (String, Int) -> KeyPathParseError
    ) throws(KeyPathParseError) -> Int {
        let start = position
        var value: Int64 = 0
        while position < scalars.count, let digit = asciiDigit(scalars[position]) {
            if position > start, value == 0 { throw fail("an index has no leading zeros", position) }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int64(digit))
            if o1 || o2 { throw fail("the index is larger than \(Int64.max)", position) }
            value = plus
            position += 1
        }
        guard position > start else {
            if position == scalars.count { throw fail("expected an index or a quoted key, the path ended", position) }
            throw fail("expected an index (digits) or a quoted key (\"...\")", position)
        }
        return Int(value)
    }

    private static func asciiDigit(_ scalar: Unicode.Scalar) -> UInt8? {
        ("0"..."9").contains(scalar) ? UInt8(scalar.value - 48) : nil
    }

    /// A JSON string: `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\uXXXX` (paired surrogates only).
    private static func parseQuoted(
        _ scalars: [Unicode.Scalar],
        _ position: inout Int,
        _ fail: (String, Int) -> KeyPathParseError
    ) throws(KeyPathParseError) -> String {
        position += 1  // opening quote
        var key = String.UnicodeScalarView()
        while true {
            guard position < scalars.count else { throw fail("unterminated quoted key", position) }
            let scalar = scalars[position]
            switch scalar {
            case "\"":
                position += 1
                return String(key)
            case "\\":
                position += 1
                guard position < scalars.count else { throw fail("unterminated escape", position) }
                let escaped = scalars[position]
                position += 1
                switch escaped {
                case "\"": key.append("\"")
                case "\\": key.append("\\")
                case "/": key.append("/")
                case "b": key.append("\u{08}")
                case "f": key.append("\u{0C}")
                case "n": key.append("\n")
                case "r": key.append("\r")
                case "t": key.append("\t")
                case "u":
                    // "\uDC"–"\uDF" can start no character: that fails at the second digit.
                    if peekHex(scalars, position) == 0xD, let second = peekHex(scalars, position + 1), second >= 0xC {
                        throw fail("a lone low surrogate escape is not a character", position + 1)
                    }
                    let high = try hex4(scalars, &position, fail)
                    if (0xD800...0xDBFF).contains(high) {
                        for expected in ["\\", "u"] as [Unicode.Scalar] {
                            guard position < scalars.count else {
                                throw fail("a high surrogate escape needs a low surrogate escape after it", position)
                            }
                            guard scalars[position] == expected else {
                                throw fail("a high surrogate escape needs a low surrogate escape after it", position)
                            }
                            position += 1
                        }
                        let low = try lowSurrogate(scalars, &position, fail)
                        key.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!)
                    } else {
                        key.append(Unicode.Scalar(high)!)
                    }
                default:
                    throw fail("unknown escape \"\\\(escaped)\"", position - 1)
                }
            default:
                if scalar.value < 0x20 { throw fail("a control character must be escaped in a quoted key", position) }
                key.append(scalar)
                position += 1
            }
        }
    }

    /// Four hex digits; fails at the first scalar that is not one (or one past the end).
    private static func hex4(
        _ scalars: [Unicode.Scalar],
        _ position: inout Int,
        _ fail: (String, Int) -> KeyPathParseError
    ) throws(KeyPathParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < scalars.count, let digit = hexDigit(scalars[position]) else {
                throw fail("\\u needs four hex digits", position)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// The four digits of a low surrogate escape (DC00–DFFF): the first must be `d`, the second `c`–`f`.
    private static func lowSurrogate(
        _ scalars: [Unicode.Scalar],
        _ position: inout Int,
        _ fail: (String, Int) -> KeyPathParseError
    ) throws(KeyPathParseError) -> UInt32 {
        let reason = "a high surrogate escape needs a low surrogate escape (\\uDC00–\\uDFFF) after it"
        let first = peekHex(scalars, position)
        if let first, first != 0xD { throw fail(reason, position) }
        // The second digit matters only after a `d`: `\uD83D\u.3` fails at the `.`, not at the `3` after it.
        if first == 0xD, let second = peekHex(scalars, position + 1), second < 0xC { throw fail(reason, position + 1) }
        return try hex4(scalars, &position, fail)
    }

    private static func peekHex(_ scalars: [Unicode.Scalar], _ index: Int) -> UInt32? {
        index < scalars.count ? hexDigit(scalars[index]) : nil
    }

    private static func hexDigit(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 0x30...0x39: scalar.value - 0x30
        case 0x41...0x46: scalar.value - 0x41 + 10
        case 0x61...0x66: scalar.value - 0x61 + 10
        default: nil
        }
    }
}
