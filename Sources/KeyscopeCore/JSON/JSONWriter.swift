import Foundation

/// Writes StoreValues as JSON per docs/store.md into a ``JSONBuffer``.
struct JSONWriter {
    let sortedKeys: Bool
    let pretty: Bool
    private var indent = 0

    init(sortedKeys: Bool = false, pretty: Bool = false) {
        self.sortedKeys = sortedKeys
        self.pretty = pretty
    }

    mutating func write(_ value: StoreValue, to out: inout JSONBuffer) {
        switch value {
        case .string(let s): Self.writeString(s, to: &out)
        case .integer(let i): out.appendDecimal(i)
        case .number(let d): writeNumber(d, to: &out)
        case .bool(let b): out.append(b ? "true" : "false")
        case .null: out.append("null")
        case .color(let c): writeTagged("$color", c.hex, to: &out)
        case .url(let u): writeTagged("$url", u.absoluteString, to: &out)
        case .array(let elements): writeArray(elements, to: &out)
        case .object(let members): writeObject(members, to: &out)
        }
    }

    private func writeNumber(_ d: Double, to out: inout JSONBuffer) {
        if d.isNaN {
            writeTagged("$number", "nan", to: &out)
        } else if d.isInfinite {
            writeTagged("$number", d < 0 ? "-inf" : "inf", to: &out)
        } else {
            // Swift prints the shortest text that round-trips, always with "." or an exponent ("3.0", "1e+300").
            JSONEscaping.withUTF8(of: d.description) { out.append($0) }
        }
    }

    private func writeTagged(_ tag: String, _ payload: String, to out: inout JSONBuffer) {
        out.append(UInt8(ascii: "{"))
        Self.writeString(tag, to: &out)
        out.append(UInt8(ascii: ":"))
        if pretty { out.append(UInt8(ascii: " ")) }
        Self.writeString(payload, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    private mutating func writeArray(_ elements: [StoreValue], to out: inout JSONBuffer) {
        out.append(UInt8(ascii: "["))
        indent += 1
        for (offset, element) in elements.enumerated() {
            if offset > 0 { out.append(UInt8(ascii: ",")) }
            newline(&out)
            write(element, to: &out)
        }
        indent -= 1
        if !elements.isEmpty { newline(&out) }
        out.append(UInt8(ascii: "]"))
    }

    private mutating func writeObject(_ members: [String: StoreValue], to out: inout JSONBuffer) {
        out.append(UInt8(ascii: "{"))
        indent += 1
        var first = true
        func member(_ key: String, _ value: StoreValue, into writer: inout JSONWriter, _ out: inout JSONBuffer) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            writer.newline(&out)
            if key.utf8.first == UInt8(ascii: "$") {
                Self.writeString("$" + key, to: &out)
            } else {
                Self.writeString(key, to: &out)
            }
            out.append(UInt8(ascii: ":"))
            if writer.pretty { out.append(UInt8(ascii: " ")) }
            writer.write(value, to: &out)
        }
        if sortedKeys {
            // Code-point (UTF-8 byte) order, as C's strcmp gives: String's `<` compares canonically equivalent
            // forms as equal and would order differently from any other language.
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for key in keys { member(key, members[key]!, into: &self, &out) }
        } else {
            for (key, value) in members { member(key, value, into: &self, &out) }
        }
        indent -= 1
        if !members.isEmpty { newline(&out) }
        out.append(UInt8(ascii: "}"))
    }

    private func newline(_ out: inout JSONBuffer) {
        guard pretty else { return }
        out.append(UInt8(ascii: "\n"))
        for _ in 0..<(indent * 2) { out.append(UInt8(ascii: " ")) }
    }

    /// Appends `s` as a JSON string, quotes included.
    static func writeString(_ s: String, to out: inout JSONBuffer) {
        out.append(UInt8(ascii: "\""))
        appendEscaped(s, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// Appends `s` as the inside of a JSON string (escaped, without the quotes).
    static func appendEscaped(_ s: String, to out: inout JSONBuffer) {
        JSONEscaping.withUTF8(of: s) { utf8 in
            // Runs without escapes (nearly always the whole string) are copied at once.
            var runStart = 0
            while let special = JSONEscaping.firstSpecial(in: utf8, from: runStart) {
                out.append(UnsafeBufferPointer(rebasing: utf8[runStart..<special]))
                appendEscape(utf8[special], to: &out)
                runStart = special + 1
            }
            out.append(UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
    }

    private static func appendEscape(_ byte: UInt8, to out: inout JSONBuffer) {
        out.append(0x5C)
        switch byte {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        default:
            out.append("u00")
            out.append(JSONBuffer.hexDigit(byte >> 4))
            out.append(JSONBuffer.hexDigit(byte & 0xF))
        }
    }
}
