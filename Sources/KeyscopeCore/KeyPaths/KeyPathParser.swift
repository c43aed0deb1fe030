/// The key-path grammar of VALUES.md, over Unicode scalars so that error columns count scalars.
enum KeyPathParser {
    static func parse(_ text: String) throws(KeyPathParseError) -> [StoreKeyPath.Segment] {
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
        switch scalar {
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
        guard position < scalars.count else { throw fail("expected an index or a quoted key, the path ended", position) }
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
            if position > start, value == 0 { throw fail("an index has no leading zeros", start) }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int64(digit))
            if o1 || o2 { throw fail("the index is larger than \(Int64.max)", start) }
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
                let escapeStart = position
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
                    let high = try hex4(scalars, &position, escapeStart, fail)
                    if (0xD800...0xDBFF).contains(high) {
                        guard position + 1 < scalars.count, scalars[position] == "\\", scalars[position + 1] == "u"
                        else { throw fail("a lone surrogate escape is not a character", escapeStart) }
                        position += 2
                        let low = try hex4(scalars, &position, escapeStart, fail)
                        guard (0xDC00...0xDFFF).contains(low) else {
                            throw fail("a lone surrogate escape is not a character", escapeStart)
                        }
                        key.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!)
                    } else if (0xDC00...0xDFFF).contains(high) {
                        throw fail("a lone surrogate escape is not a character", escapeStart)
                    } else {
                        key.append(Unicode.Scalar(high)!)
                    }
                default:
                    throw fail("unknown escape \"\\\(escaped)\"", escapeStart)
                }
            default:
                if scalar.value < 0x20 { throw fail("a control character must be escaped in a quoted key", position) }
                key.append(scalar)
                position += 1
            }
        }
    }

    private static func hex4(
        _ scalars: [Unicode.Scalar],
        _ position: inout Int,
        _ escapeStart: Int,
        _ fail: (String, Int) -> KeyPathParseError
    ) throws(KeyPathParseError) -> UInt32 {
        guard position + 4 <= scalars.count else { throw fail("\\u needs four hex digits", escapeStart) }
        var value: UInt32 = 0
        for scalar in scalars[position..<position + 4] {
            guard scalar.isASCII, UInt8(scalar.value).isHexDigit, let digit = UInt32(String(scalar), radix: 16) else {
                throw fail("\\u needs four hex digits", escapeStart)
            }
            value = value << 4 | digit
        }
        position += 4
        return value
    }
}
