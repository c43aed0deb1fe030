public import KeyscopeCore

/// The byte-level steps of ``LogLineDecoder``'s fast path: whitespace, punctuation, plain strings, small integers
/// and embedded values, over one line in place. Each step either reads exactly what it is for or throws ``Bail``,
/// which sends the whole line to the reference decoder (jansson); nothing here reports an error to a person.
struct LineScanner {
    /// The line is not of the shape the fast path reads: decode it the reference way.
    struct Bail: Error {}

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The byte at ``position``, or 0 past the end (a raw NUL is never valid JSON, so 0 never matches a token).
    var current: UInt8 { position < bytes.count ? bytes[position] : 0 }

    var isAtEnd: Bool { position == bytes.count }

    @inline(__always) mutating func skipWhitespace() {
        // Recorders write compact JSON: nearly always the next byte is no space, and the call costs one compare.
        guard position < bytes.count, bytes[position] <= 0x20 else { return }
        skipWhitespaceRun()
    }

    private mutating func skipWhitespaceRun() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// Steps over `byte` and the whitespace after it.
    mutating func expect(_ byte: UInt8) throws(Bail) {
        guard current == byte else { throw Bail() }
        position += 1
        skipWhitespace()
    }

    /// After a member or an element: `true` past a `,`, `false` past `close` (whitespace after either skipped).
    mutating func nextMember(close: UInt8) throws(Bail) -> Bool {
        skipWhitespace()
        let byte = current
        guard byte == UInt8(ascii: ",") || byte == close else { throw Bail() }
        position += 1
        skipWhitespace()
        return byte == UInt8(ascii: ",")
    }

    /// The bytes between the quotes of a string with no escape and no control character; `ascii` says whether
    /// they are all below 0x80 (otherwise the caller checks that they are UTF-8 before keeping them as text).
    mutating func plainString() throws(Bail) -> (text: UnsafeBufferPointer<UInt8>, ascii: Bool) {
        guard current == UInt8(ascii: "\"") else { throw Bail() }
        let start = position + 1
        var index = start
        var high: UInt8 = 0
        // Eight bytes at a time while none of them is a quote, a backslash or a control byte (the classic
        // "has a zero byte" tests: a byte x is below n when (x - n) borrows into a high bit that x lacks).
        let raw = UnsafeRawBufferPointer(bytes)
        var highWord: UInt64 = 0
        while index + 8 <= raw.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let quote = word ^ 0x2222_2222_2222_2222
            let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
            let special =
                ((quote &- Self.ones) & ~quote) | ((backslash &- Self.ones) & ~backslash)
                | ((word &- 0x2020_2020_2020_2020) & ~word)
            guard special & Self.highBits == 0 else { break }
            highWord |= word
            index += 8
        }
        if highWord & Self.highBits != 0 { high = 0x80 }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                return (UnsafeBufferPointer(rebasing: bytes[start..<index]), high < 0x80)
            }
            guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { throw Bail() }
            high |= byte
            index += 1
        }
        throw Bail()
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// A plain string that must be all ASCII (a key, a time, an op).
    mutating func asciiString() throws(Bail) -> UnsafeBufferPointer<UInt8> {
        let (text, ascii) = try plainString()
        guard ascii else { throw Bail() }
        return text
    }

    /// An integer literal from 1 to 10¹⁸ − 1, without sign, fraction or exponent (a `seq`).
    mutating func positiveInteger() throws(Bail) -> Int64 {
        let start = position
        var value: Int64 = 0
        while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
            value = value &* 10 &+ Int64(bytes[position] &- 0x30)
            position += 1
        }
        let digits = position - start
        guard digits > 0, digits <= 18, bytes[start] != 0x30 else { throw Bail() }
        switch current {
        case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): throw Bail()
        default: return value
        }
    }

    /// The literal `null`.
    mutating func null() throws(Bail) {
        guard position + 4 <= bytes.count, bytes[position] == UInt8(ascii: "n"),
            bytes[position + 1] == UInt8(ascii: "u"),
            bytes[position + 2] == UInt8(ascii: "l"), bytes[position + 3] == UInt8(ascii: "l")
        else { throw Bail() }
        position += 4
    }

    /// A whole value read by the core's reader (docs/store.md), no deeper than `maxDepth`.
    mutating func value(maxDepth: Int) throws(Bail) -> StoreValue {
        do {
            return try StoreValue.readJSON(from: bytes, at: &position, maxDepth: maxDepth)
        } catch {
            throw Bail()
        }
    }

    /// Whether `text` is exactly `literal` (ASCII).
    static func equals(_ text: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard text.count == literal.utf8CodeUnitCount else { return false }
        let expected = literal.utf8Start
        for index in 0..<text.count where text[index] != expected[index] { return false }
        return true
    }
}
