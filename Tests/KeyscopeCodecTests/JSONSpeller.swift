import Foundation
import KeyscopeCore

/// Random valid spellings of values (copied from `Tests/KeyscopeCoreTests/Generators.swift`).
extension StoreGen {
    /// Writes a StoreValue as valid but non-canonical JSON.
    enum JSONSpeller {
        static func spell(_ value: StoreValue, using rng: inout some RandomNumberGenerator) -> String {
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
        static func string(_ s: String, _ rng: inout some RandomNumberGenerator) -> String {
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

        static func unicodeEscape(_ scalar: Unicode.Scalar, upperCase: Bool) -> String {
            func hex4(_ unit: UInt32) -> String {
                let digits = String(unit, radix: 16, uppercase: upperCase)
                return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            }
            guard scalar.value > 0xFFFF else { return hex4(scalar.value) }
            let offset = scalar.value - 0x10000
            return hex4(0xD800 + (offset >> 10)) + hex4(0xDC00 + (offset & 0x3FF))
        }
    }
}
