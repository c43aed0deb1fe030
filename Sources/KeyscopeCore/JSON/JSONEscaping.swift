/// Finding the bytes a JSON string must escape (`"`, `\` and control characters), eight bytes per step: the encoders'
/// hot path, since almost every string has none and can be copied as one run.
///
/// ```swift
/// JSONEscaping.quotedLength(of: "say \"hi\"")   // 12: the text, two escapes, two quotes
/// ```
public enum JSONEscaping {
    /// The length in bytes of `text` as a JSON string, quotes included, escaped as ``StoreValue/jsonBytes(sortedKeys:)``
    /// escapes it.
    public static func quotedLength(of text: String) -> Int {
        withUTF8(of: text) { bytes in
            guard firstSpecial(in: bytes, from: 0) != nil else { return bytes.count + 2 }
            var total = 2
            for byte in bytes { total += escapedLength(of: byte) }
            return total
        }
    }

    /// Calls `body` with `text`'s UTF-8 bytes. A native string lends its own storage; only a bridged or foreign one
    /// is copied first. (`String.withUTF8` is `mutating`: calling it on a copy retains and releases the string's
    /// buffer, which the encoders do for every string they write, on buffers other threads share.)
    @inline(__always)
    static func withUTF8<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = text
        return copy.withUTF8(body)
    }

    /// The index of the first byte at or after `start` that must be escaped; `nil` when there is none.
    ///
    /// The bit tricks are those of "Bit Twiddling Hacks": a word has a byte below n when
    /// `(w - 0x01…01 * n) & ~w & 0x80…80` is not zero, and a byte equal to n when `w ^ (0x01…01 * n)` has a zero byte.
    /// They answer "is there one" exactly; the byte-by-byte loop then finds where.
    static func firstSpecial(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let control = (word &- ones &* 0x20) & ~word
                let quoteZero = (quote &- ones) & ~quote
                let backslashZero = (backslash &- ones) & ~backslash
                if (control | quoteZero | backslashZero) & highs != 0 { break }
                index += 8
            }
        }
        while index < bytes.count {
            if escapedLength(of: bytes[index]) != 1 { return index }
            index += 1
        }
        return nil
    }

    /// How many bytes `byte` takes in a JSON string: 1, 2 for `\"`, `\\` and the short escapes, 6 for `\u00XX`.
    @inline(__always)
    static func escapedLength(of byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x08, 0x09, 0x0A, 0x0C, 0x0D: return 2
        case 0x00..<0x20: return 6
        default: return 1
        }
    }
}
