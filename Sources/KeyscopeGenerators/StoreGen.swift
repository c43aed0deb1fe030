public import Foundation
public import KeyscopeCore
public import PropertyBased
public import Testing

/// Random StoreValues, key paths, and random (non-canonical but valid) spellings of both, for the property tests.
///
/// ```swift
/// await propertyCheck(input: StoreGen.value()) { value in
///     #expect(try StoreValue(jsonText: value.jsonText()) == value)
/// }
/// ```
/// Values cover every case: non-finite numbers and -0.0, keys that start with `$` (and the tag names themselves),
/// strings with control characters, astral characters and combining marks, colors in both cases, and URLs.
public enum StoreGen {
    /// Values with at most `depth` levels of containers under the top, each container with at most `width` children.
    public static func value(depth: Int = 3, width: Int = 4) -> Generator<StoreValue, Shrink.None<StoreValue>> {
        Generator { rng in randomValue(depth: depth, width: width, using: &rng) }
    }

    /// Key paths of up to six segments: names, quoted keys of any text (empty, dots, quotes, controls…) and indexes.
    public static var keyPath: Generator<StoreKeyPath, Shrink.None<StoreKeyPath>> {
        Generator { rng in randomKeyPath(using: &rng) }
    }

    /// A value with a random valid JSON spelling of it: whitespace, escapes, key order, `$`-prefixes and number
    /// forms all vary, so it decodes to the value without being its canonical text.
    public static func spelledValue(depth: Int = 3, width: Int = 4) -> Generator<
        SpelledValue, Shrink.None<SpelledValue>
    > {
        Generator { rng in
            let value = randomValue(depth: depth, width: width, using: &rng)
            return SpelledValue(value: value, text: JSONSpeller.spell(value, using: &rng))
        }
    }

    /// A key path with a random valid spelling: quoted keys where names would do, escapes, `\/`, surrogate pairs.
    public static var spelledKeyPath: Generator<SpelledKeyPath, Shrink.None<SpelledKeyPath>> {
        Generator { rng in
            let path = randomKeyPath(using: &rng)
            return SpelledKeyPath(path: path, text: KeyPathSpeller.spell(path.segments, using: &rng))
        }
    }

    /// Bytes of a valid JSON text with one to three random edits (replace, insert, delete), mostly invalid.
    public static var mangledJSON: Generator<[UInt8], Shrink.None<[UInt8]>> {
        Generator { rng in
            var bytes = Array(randomValue(depth: 2, width: 3, using: &rng).jsonText().utf8)
            let interesting = Array(#"{}[],:"\-.0123456789eE+$untfl "#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xED, 0xFF]
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let byte = chance(0.5, &rng) ? pick(interesting, &rng) : UInt8.random(in: 0...255, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0 where !bytes.isEmpty: bytes[Int.random(in: 0..<bytes.count, using: &rng)] = byte
                case 1: bytes.insert(byte, at: Int.random(in: 0...bytes.count, using: &rng))
                default: if !bytes.isEmpty { bytes.remove(at: Int.random(in: 0..<bytes.count, using: &rng)) }
                }
            }
            return bytes
        }
    }

    /// Text that may or may not be a key path: a valid spelling with one to three random scalar edits.
    public static var mangledKeyPath: Generator<String, Shrink.None<String>> {
        Generator { rng in
            let path = randomKeyPath(using: &rng)
            var scalars = Array(KeyPathSpeller.spell(path.segments, using: &rng).unicodeScalars)
            let interesting: [Unicode.Scalar] = [".", "[", "]", "\"", "\\", "u", "0", "1", "d", " ", "\u{7}", "\u{A0}"]
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let scalar = chance(0.6, &rng) ? pick(interesting, &rng) : randomScalar(using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0 where !scalars.isEmpty: scalars[Int.random(in: 0..<scalars.count, using: &rng)] = scalar
                case 1: scalars.insert(scalar, at: Int.random(in: 0...scalars.count, using: &rng))
                default: if !scalars.isEmpty { scalars.remove(at: Int.random(in: 0..<scalars.count, using: &rng)) }
                }
            }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            return String(text)
        }
    }
}

/// A value and one valid JSON spelling of it.
public struct SpelledValue: Sendable, CustomTestStringConvertible {
    public let value: StoreValue
    public let text: String
    public var testDescription: String { ExactText.of(text) }
}

/// A key path and one valid spelling of it.
public struct SpelledKeyPath: Sendable, CustomTestStringConvertible {
    public let path: StoreKeyPath
    public let text: String
    public var testDescription: String { ExactText.of(text) }
}

/// Exact, readable spellings for comparisons that must not use String's canonical equivalence (`"é"` equals
/// `"e\u{301}"` for `==`, but not for the JSON writer or the key-path printer).
public enum ExactText {
    /// ASCII text: printable ASCII as is, every other scalar as `\u{…}` (so `==` on the result is scalar-exact).
    public static func of(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if (0x20...0x7E).contains(scalar.value) && scalar != "\\" {
                out.unicodeScalars.append(scalar)
            } else {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return out
    }

    /// The segments spelled exactly, for comparing parsed paths.
    public static func of(_ segments: [StoreKeyPath.Segment]) -> [String] {
        segments.map { segment in
            switch segment {
            case .key(let key): "key(" + of(key) + ")"
            case .index(let index): "index(\(index))"
            }
        }
    }
}

extension StoreGen {
    // MARK: - Random building blocks

    public static func chance(_ probability: Double, _ rng: inout some RandomNumberGenerator) -> Bool {
        Double.random(in: 0..<1, using: &rng) < probability
    }

    public static func pick<T>(_ choices: [T], _ rng: inout some RandomNumberGenerator) -> T {
        choices[Int.random(in: 0..<choices.count, using: &rng)]
    }

    private static func makeScalar(_ value: UInt32) -> Unicode.Scalar { Unicode.Scalar(value)! }

    /// One scalar, weighted towards the ones that JSON and key paths treat specially.
    public static func randomScalar(using rng: inout some RandomNumberGenerator) -> Unicode.Scalar {
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<35: return makeScalar(UInt32.random(in: 0x20...0x7E, using: &rng))
        case 35..<45: return pick(["\"", "\\", "/", "$", ".", "[", "]", " ", "0", "u"], &rng)
        case 45..<53: return makeScalar(UInt32.random(in: 0x00...0x1F, using: &rng))
        case 53..<57: return makeScalar(UInt32.random(in: 0x7F...0x9F, using: &rng))
        case 57..<67: return makeScalar(UInt32.random(in: 0xA0...0xD7FF, using: &rng))
        case 67..<71: return makeScalar(pick([0xE000, 0xF8FF, 0xFDD0, 0xFFFD, 0xFFFE, 0xFFFF] as [UInt32], &rng))
        case 71..<83: return makeScalar(UInt32.random(in: 0x10000...0x10FFFF, using: &rng))
        case 83..<90: return makeScalar(UInt32.random(in: 0x300...0x36F, using: &rng))  // combining marks
        default:
            // White_Space and format characters beyond ASCII.
            return makeScalar(pick([0x85, 0xA0, 0x1680, 0x2000, 0x200B, 0x2028, 0x2029, 0x202F, 0x3000, 0xFEFF], &rng))
        }
    }

    public static func randomString(maxLength: Int = 8, using rng: inout some RandomNumberGenerator) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...maxLength, using: &rng) { scalars.append(randomScalar(using: &rng)) }
        return String(scalars)
    }

    /// Object keys: often `$`-prefixed, sometimes exactly a tag name or its unescaped form.
    public static func randomKey(using rng: inout some RandomNumberGenerator) -> String {
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<15:
            return pick(
                ["", "$", "$$", "$number", "$color", "$url", "number", "color", "url", "$$number", "a", "0"], &rng)
        case 15..<35:
            return String(repeating: "$", count: Int.random(in: 1...3, using: &rng)) + randomString(using: &rng)
        default: return randomString(using: &rng)
        }
    }

    public static func randomInteger(using rng: inout some RandomNumberGenerator) -> Int64 {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<3:
            let edges: [Int64] = [0, 1, -1, .max, .min, .max - 1, .min + 1, 1 << 53, (1 << 53) + 1, -(1 << 53) - 1]
            return pick(edges, &rng)
        case 3..<6: return Int64.random(in: -1000...1000, using: &rng)
        default: return Int64.random(in: .min ... .max, using: &rng)
        }
    }

    public static func randomDouble(using rng: inout some RandomNumberGenerator) -> Double {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<3:
            return pick(
                [
                    0.0, -0.0, .nan, -.nan, .signalingNaN, Double(nan: 0x1234, signaling: false), .infinity, -.infinity,
                    .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
                    -.greatestFiniteMagnitude, 1.0, 3.0, 0.1, 0.42, 1e15, 1e16, 9_007_199_254_740_992.0, 1e-5, 0.0001,
                    1e300, 1e-300,
                ], &rng)
        case 3..<6:
            // Any double at all, NaNs with payloads included.
            return Double(bitPattern: UInt64.random(in: .min ... .max, using: &rng))
        case 6..<8: return Double.random(in: -1e6...1e6, using: &rng)
        default: return Double(Int.random(in: -1_000_000...1_000_000, using: &rng))
        }
    }

    public static func randomColor(using rng: inout some RandomNumberGenerator) -> StoreColor {
        let digits = Array("0123456789abcdefABCDEF")
        let count = chance(0.5, &rng) ? 6 : 8
        return StoreColor("#" + String((0..<count).map { _ in pick(digits, &rng) }))!
    }

    public static func randomURL(using rng: inout some RandomNumberGenerator) -> URL {
        func path(_ rng: inout some RandomNumberGenerator) -> String {
            let pieces = ["a", "b-c", "x_y", "~u", "%20", "%C3%A9", "é", "😀", "a b", "1.2", "..", ""]
            return (0..<Int.random(in: 0...3, using: &rng)).map { _ in "/" + pick(pieces, &rng) }.joined()
        }
        let text: String
        switch Int.random(in: 0..<9, using: &rng) {
        case 0: text = "https://example.com" + path(&rng)
        case 1: text = "http://a.example:8080" + path(&rng) + pick(["", "?a=1&b=%26", "?q"], &rng)
        case 2: text = "file:///tmp" + path(&rng)
        case 3: text = pick(["mailto:someone@example.com", "urn:isbn:0451450523", "data:,hello", "about:blank"], &rng)
        case 4: text = "x-app+v1.2://host" + path(&rng) + pick(["", "#frag", "#"], &rng)
        case 5: text = "ftp://user:pw@ftp.example.org" + path(&rng)
        case 6: text = "https://[::1]/" + path(&rng)
        case 7: return URL(fileURLWithPath: "/tmp/" + randomString(using: &rng).filter { $0 != "\0" })
        default:
            let base = URL(string: "https://example.com/dir/")!
            return URL(string: pick(["x", "../y", "?q=1", "#f", "sub/z"], &rng), relativeTo: base)!
        }
        if let url = URL(string: text), url.scheme != nil { return url }
        return URL(string: "https://example.com/")!
    }

    public static func randomValue(depth: Int, width: Int, using rng: inout some RandomNumberGenerator) -> StoreValue {
        if depth > 0, chance(0.5, &rng) {
            if chance(0.5, &rng) {
                return .array(
                    (0..<Int.random(in: 0...width, using: &rng)).map { _ in
                        randomValue(depth: depth - 1, width: width, using: &rng)
                    })
            }
            var members: [String: StoreValue] = [:]
            for _ in 0..<Int.random(in: 0...width, using: &rng) {
                members[randomKey(using: &rng)] = randomValue(depth: depth - 1, width: width, using: &rng)
            }
            return .object(members)
        }
        switch Int.random(in: 0..<9, using: &rng) {
        case 0: return .string(randomString(using: &rng))
        case 1: return .integer(randomInteger(using: &rng))
        case 2, 3: return .number(randomDouble(using: &rng))
        case 4: return .bool(chance(0.5, &rng))
        case 5: return .null
        case 6: return .color(randomColor(using: &rng))
        case 7: return .url(randomURL(using: &rng))
        default: return .string(pick(["", "$number", "nan", "#FF8800", "https://example.com/"], &rng))
        }
    }

    public static func randomKeyPath(using rng: inout some RandomNumberGenerator) -> StoreKeyPath {
        var segments: [StoreKeyPath.Segment] = []
        for _ in 0..<Int.random(in: 0...6, using: &rng) {
            if chance(0.35, &rng) {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: segments.append(.index(pick([0, 1, 9, 10, 100, Int(Int64.max)], &rng)))
                case 1: segments.append(.index(Int.random(in: 0...1000, using: &rng)))
                default: segments.append(.index(Int.random(in: 0...Int(Int64.max), using: &rng)))
                }
            } else if chance(0.4, &rng) {
                // A plain name: every scalar allowed in the `name` production.
                let pool: [Unicode.Scalar] = [
                    "a", "Z", "0", "9", "$", "_", "-", "/", "\\", "é", "日", "😀", "\u{200B}",
                ]
                var name = String.UnicodeScalarView()
                for _ in 0..<Int.random(in: 1...5, using: &rng) { name.append(pick(pool, &rng)) }
                segments.append(.key(String(name)))
            } else {
                segments.append(.key(randomKey(using: &rng)))
            }
        }
        return StoreKeyPath(segments: segments)
    }

    // MARK: - Random spellings

    /// Writes a StoreValue as valid but non-canonical JSON.
    public enum JSONSpeller {
        public static func spell(_ value: StoreValue, using rng: inout some RandomNumberGenerator) -> String {
            var out = whitespace(&rng)
            write(value, into: &out, &rng)
            return out + whitespace(&rng)
        }

        private static func whitespace(_ rng: inout some RandomNumberGenerator) -> String {
            guard chance(0.3, &rng) else { return "" }
            return String((0..<Int.random(in: 1...2, using: &rng)).map { _ in pick([" ", "\t", "\n", "\r"], &rng) })
        }

        private static func write(_ value: StoreValue, into out: inout String, _ rng: inout some RandomNumberGenerator)
        {
            switch value {
            case .string(let s): out += string(s, &rng)
            case .integer(let i): out += i == 0 && chance(0.3, &rng) ? "-0" : String(i)
            case .bool(let b): out += b ? "true" : "false"
            case .null: out += "null"
            case .number(let d) where d.isNaN: tagged("$number", "nan", into: &out, &rng)
            case .number(let d) where d.isInfinite: tagged("$number", d < 0 ? "-inf" : "inf", into: &out, &rng)
            case .number(let d): out += number(d, &rng)
            case .color(let c): tagged("$color", c.hex, into: &out, &rng)
            case .url(let u): tagged("$url", u.absoluteString, into: &out, &rng)
            case .array(let elements):
                out += "[" + whitespace(&rng)
                for (offset, element) in elements.enumerated() {
                    if offset > 0 { out += whitespace(&rng) + "," + whitespace(&rng) }
                    write(element, into: &out, &rng)
                }
                out += whitespace(&rng) + "]"
            case .object(let members):
                out += "{" + whitespace(&rng)
                for (offset, key) in members.keys.shuffled(using: &rng).enumerated() {
                    if offset > 0 { out += whitespace(&rng) + "," + whitespace(&rng) }
                    // `$`-escaping is required for `$…` keys; for others one extra `$` is optional, except where the
                    // object would then read as a tag.
                    let wouldBeTag = members.count == 1 && ["number", "color", "url"].contains(key)
                    // A scalar-level test: `hasPrefix` compares Characters, and `$` + a combining mark is one.
                    let startsWithDollar = key.unicodeScalars.first == "$"
                    let rawKey = startsWithDollar || (!wouldBeTag && chance(0.2, &rng)) ? "$" + key : key
                    out += string(rawKey, &rng) + whitespace(&rng) + ":" + whitespace(&rng)
                    write(members[key]!, into: &out, &rng)
                }
                out += whitespace(&rng) + "}"
            }
        }

        private static func tagged(
            _ tag: String, _ payload: String, into out: inout String,
            _ rng: inout some RandomNumberGenerator
        ) {
            out += "{" + whitespace(&rng) + string(tag, &rng) + whitespace(&rng) + ":" + whitespace(&rng)
            out += string(payload, &rng) + whitespace(&rng) + "}"
        }

        private static func number(_ d: Double, _ rng: inout some RandomNumberGenerator) -> String {
            var text = d.description
            if chance(0.3, &rng) { text = text.replacingOccurrences(of: "e", with: "E") }
            if !text.contains("e") && !text.contains("E") && chance(0.3, &rng) {
                text += pick(["e0", "E+0", "e-0", "e00"], &rng)
            }
            return text
        }

        /// A JSON string with each scalar raw or escaped at random (short escapes, `\u` in either case, surrogate
        /// pairs).
        public static func string(_ s: String, _ rng: inout some RandomNumberGenerator) -> String {
            var out = "\""
            for scalar in s.unicodeScalars {
                let short: String? =
                    switch scalar {
                    case "\"": "\\\""
                    case "\\": "\\\\"
                    case "/": "\\/"
                    case "\u{08}": "\\b"
                    case "\u{0C}": "\\f"
                    case "\n": "\\n"
                    case "\r": "\\r"
                    case "\t": "\\t"
                    default: nil
                    }
                let mustEscape = scalar == "\"" || scalar == "\\" || scalar.value < 0x20
                if !mustEscape && chance(0.7, &rng) {
                    out.unicodeScalars.append(scalar)
                } else if let short, chance(0.6, &rng) {
                    out += short
                } else {
                    out += unicodeEscape(scalar, upperCase: chance(0.5, &rng))
                }
            }
            return out + "\""
        }

        public static func unicodeEscape(_ scalar: Unicode.Scalar, upperCase: Bool) -> String {
            func hex4(_ unit: UInt32) -> String {
                let digits = String(unit, radix: 16, uppercase: upperCase)
                return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            }
            guard scalar.value > 0xFFFF else { return hex4(scalar.value) }
            let offset = scalar.value - 0x10000
            return hex4(0xD800 + (offset >> 10)) + hex4(0xDC00 + (offset & 0x3FF))
        }
    }

    /// Writes a key path in a random valid spelling.
    public enum KeyPathSpeller {
        public static func spell(_ segments: [StoreKeyPath.Segment], using rng: inout some RandomNumberGenerator)
            -> String
        {
            var out = ""
            for (offset, segment) in segments.enumerated() {
                switch segment {
                case .index(let index):
                    out += "[\(index)]"
                case .key(let key) where isName(key) && chance(0.7, &rng):
                    out += (offset > 0 ? "." : "") + key
                case .key(let key):
                    out += "[" + quoted(key, &rng) + "]"
                }
            }
            return out
        }

        /// StoreValue `name`: one or more scalars other than `.`, `[`, `]`, `"`, White_Space and control characters.
        public static func isName(_ key: String) -> Bool {
            !key.isEmpty
                && key.unicodeScalars.allSatisfy { scalar in
                    !".[]\"".unicodeScalars.contains(scalar) && !scalar.properties.isWhitespace
                        && scalar.properties.generalCategory != .control
                }
        }

        private static func quoted(_ key: String, _ rng: inout some RandomNumberGenerator) -> String {
            JSONSpeller.string(key, &rng)
        }
    }
}
