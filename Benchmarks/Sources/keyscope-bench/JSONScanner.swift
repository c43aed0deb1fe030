/// A validating JSON parser that builds no tree: it checks every byte of a message against the JSON grammar
/// (RFC 8259: structure, string escapes, UTF-8, number syntax; nesting up to 512) and picks out what the
/// benchmark client needs: the top-level `type`, the `seq` of each object in the top-level `entries` array (or the
/// top-level `seq` of a snapshot).
///
/// It stands for a client with a streaming (SAX-style) parser, the way a fast client reads a stream it only
/// needs parts of, where `MessageParser.parse` stands for one that builds a whole DOM with jansson. Keys are
/// compared as written: a key spelt with escapes (`"se\u0071"`) does not count as `seq`.
///
/// ```swift
/// let summary = bytes.withUnsafeBytes { JSONScanner.scan($0) }   // nil: not one valid JSON object
/// ```
struct JSONScanner {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var type: MessageSummary.Kind = .other
    private var entries = 0
    private var lastSeq: Int?
    private var rootSeq: Int?

    static let maxDepth = 512

    private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// Scans one message; `nil` unless it is exactly one valid JSON object (whitespace around it allowed).
    static func scan(_ bytes: UnsafeRawBufferPointer) -> MessageSummary? {
        var scanner = JSONScanner(bytes)
        guard scanner.document() else { return nil }
        switch scanner.type {
        case .changes: return MessageSummary(kind: .changes, entries: scanner.entries, seq: scanner.lastSeq)
        case .snapshot: return MessageSummary(kind: .snapshot, seq: scanner.rootSeq)
        default: return MessageSummary(kind: scanner.type)
        }
    }

    /// What the value being read means to the client.
    private enum Role { case root, entries, entry, other }

    private mutating func document() -> Bool {
        skipSpace()
        guard peek == UInt8(ascii: "{"), value(.root, depth: 0) else { return false }
        skipSpace()
        return index == bytes.count
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value(_ role: Role, depth: Int) -> Bool {
        guard depth < Self.maxDepth, let byte = peek else { return false }
        switch byte {
        case UInt8(ascii: "{"): return object(role, depth: depth + 1)
        case UInt8(ascii: "["): return array(role, depth: depth + 1)
        case UInt8(ascii: "\""): return string() != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number() != nil
        }
    }

    private mutating func object(_ role: Role, depth: Int) -> Bool {
        index += 1  // {
        skipSpace()
        if peek == UInt8(ascii: "}") {
            index += 1
            return true
        }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\""), let key = string() else { return false }
            skipSpace()
            guard peek == UInt8(ascii: ":") else { return false }
            index += 1
            skipSpace()
            guard member(key, of: role, depth: depth) else { return false }
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return true
            default: return false
            }
        }
    }

    /// Reads a member's value, keeping the parts the client needs.
    private mutating func member(_ key: Range<Int>, of role: Role, depth: Int) -> Bool {
        switch role {
        case .root where matches(key, "type"):
            guard peek == UInt8(ascii: "\""), let text = string() else { return false }
            type = kind(named: text)
            return true
        case .root where matches(key, "entries"):
            return peek == UInt8(ascii: "[") ? value(.entries, depth: depth) : value(.other, depth: depth)
        case .root where matches(key, "seq"):
            rootSeq = number()
            return rootSeq != nil
        case .entry where matches(key, "seq"):
            lastSeq = number()
            return lastSeq != nil
        default:
            return value(.other, depth: depth)
        }
    }

    private mutating func array(_ role: Role, depth: Int) -> Bool {
        index += 1  // [
        skipSpace()
        if peek == UInt8(ascii: "]") {
            index += 1
            return true
        }
        while true {
            skipSpace()
            if role == .entries {
                guard peek == UInt8(ascii: "{"), value(.entry, depth: depth) else { return false }
                entries += 1
            } else {
                guard value(.other, depth: depth) else { return false }
            }
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return true
            default: return false
            }
        }
    }

    /// Reads a string; the range of its raw contents (between the quotes, escapes not decoded).
    private mutating func string() -> Range<Int>? {
        index += 1  // "
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return start..<index
            }
            if byte == UInt8(ascii: "\\") {
                guard escape() else { return nil }
            } else if byte < 0x20 {
                return nil
            } else if byte < 0x80 {
                index += 1
            } else {
                guard utf8Scalar() else { return nil }
            }
        }
        return nil
    }

    private mutating func escape() -> Bool {
        guard index + 1 < bytes.count else { return false }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 2
            return true
        case UInt8(ascii: "u"):
            guard index + 6 <= bytes.count else { return false }
            for offset in 2..<6 where !isHexDigit(bytes[index + offset]) { return false }
            index += 6
            return true
        default:
            return false
        }
    }

    /// One multi-byte UTF-8 scalar: no overlong forms, no surrogates, nothing above U+10FFFF.
    private mutating func utf8Scalar() -> Bool {
        let lead = bytes[index]
        let count: Int
        let lowest: UInt32
        switch lead {
        case 0xC2...0xDF: (count, lowest) = (2, 0x80)
        case 0xE0...0xEF: (count, lowest) = (3, 0x800)
        case 0xF0...0xF4: (count, lowest) = (4, 0x10000)
        default: return false
        }
        guard index + count <= bytes.count else { return false }
        var scalar = UInt32(lead) & (0xFF >> (count + 1))
        for offset in 1..<count {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return false }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        guard scalar >= lowest, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return false }
        index += count
        return true
    }

    /// Reads a number; its value when it is an integer that fits an `Int`, else 0 (a valid number still).
    private mutating func number() -> Int? {
        var value = 0
        var exact = true
        var negative = false
        if peek == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard let first = peek, isDigit(first) else { return nil }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            while let digit = peek, isDigit(digit) {
                let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                exact = exact && !overflow
                value = times &+ Int(digit - 48)
                index += 1
            }
        }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard digits() else { return nil }
            exact = false
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard digits() else { return nil }
            exact = false
        }
        return exact ? (negative ? -value : value) : 0
    }

    /// One or more digits.
    private mutating func digits() -> Bool {
        let start = index
        while let digit = peek, isDigit(digit) { index += 1 }
        return index > start
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    private func kind(named text: Range<Int>) -> MessageSummary.Kind {
        if matches(text, "changes") { return .changes }
        if matches(text, "snapshot") { return .snapshot }
        return matches(text, "gap") ? .gap : .other
    }

    private func matches(_ range: Range<Int>, _ word: StaticString) -> Bool {
        guard range.count == word.utf8CodeUnitCount else { return false }
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != word.utf8Start[offset] {
            return false
        }
        return true
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    private func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }
}
