import Foundation

/// Writes StoreValues as JSON per VALUES.md into a byte buffer.
struct JSONWriter {
    var bytes: [UInt8] = []
    let sortedKeys: Bool
    let pretty: Bool
    private var indent = 0

    /// A writer with an empty buffer of room for `capacity` bytes (0: no buffer until the first byte, for a caller
    /// that swaps its own buffer in).
    init(sortedKeys: Bool = false, pretty: Bool = false, capacity: Int = 64) {
        self.sortedKeys = sortedKeys
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ value: StoreValue) {
        switch value {
        case .string(let s): writeString(s)
        case .integer(let i): Self.appendDecimal(i, to: &bytes)
        case .number(let d): writeNumber(d)
        case .bool(let b): append(b ? "true" : "false")
        case .null: append("null")
        case .color(let c): writeTagged("$color", c.hex)
        case .url(let u): writeTagged("$url", u.absoluteString)
        case .array(let elements): writeArray(elements)
        case .object(let members): writeObject(members)
        }
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func writeNumber(_ d: Double) {
        if d.isNaN {
            writeTagged("$number", "nan")
        } else if d.isInfinite {
            writeTagged("$number", d < 0 ? "-inf" : "inf")
        } else {
            // Swift prints the shortest text that round-trips, always with "." or an exponent ("3.0", "1e+300").
            append(d.description)
        }
    }

    private mutating func writeTagged(_ tag: String, _ payload: String) {
        bytes.append(UInt8(ascii: "{"))
        writeString(tag)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
        writeString(payload)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func writeArray(_ elements: [StoreValue]) {
        bytes.append(UInt8(ascii: "["))
        indent += 1
        for (offset, element) in elements.enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            newline()
            write(element)
        }
        indent -= 1
        if !elements.isEmpty { newline() }
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func writeObject(_ members: [String: StoreValue]) {
        bytes.append(UInt8(ascii: "{"))
        indent += 1
        var first = true
        func member(_ key: String, _ value: StoreValue, into writer: inout JSONWriter) {
            if !first { writer.bytes.append(UInt8(ascii: ",")) }
            first = false
            writer.newline()
            if key.utf8.first == UInt8(ascii: "$") {
                writer.writeString("$" + key)
            } else {
                writer.writeString(key)
            }
            writer.bytes.append(UInt8(ascii: ":"))
            if writer.pretty { writer.bytes.append(UInt8(ascii: " ")) }
            writer.write(value)
        }
        if sortedKeys {
            // Code-point (UTF-8 byte) order, as C's strcmp gives: String's `<` compares canonically equivalent
            // forms as equal and would order differently from any other language.
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for key in keys { member(key, members[key]!, into: &self) }
        } else {
            for (key, value) in members { member(key, value, into: &self) }
        }
        indent -= 1
        if !members.isEmpty { newline() }
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func newline() {
        guard pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    mutating func writeString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        Self.appendEscaped(s, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `value` in decimal, as `String(value)` spells it, without making the string.
    static func appendDecimal<Value: FixedWidthInteger>(_ value: Value, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        // Digits are made right to left on the stack and appended in one copy. A bit is less than a third of a
        // decimal digit, so bitWidth / 3 + 1 places hold any magnitude.
        let capacity = Value.bitWidth / 3 + 1
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { digits in
            var start = capacity
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest != 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends `s` as the inside of a JSON string (escaped, without the quotes).
    static func appendEscaped(_ s: String, to bytes: inout [UInt8]) {
        JSONEscaping.withUTF8(of: s) { utf8 in
            // Runs without escapes (nearly always the whole string) are copied at once.
            var runStart = 0
            while let special = JSONEscaping.firstSpecial(in: utf8, from: runStart) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<special]))
                appendEscape(utf8[special], to: &bytes)
                runStart = special + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
    }

    private static func appendEscape(_ byte: UInt8, to bytes: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
        case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
    }
}
