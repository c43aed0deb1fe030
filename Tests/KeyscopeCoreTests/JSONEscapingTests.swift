import Testing

@testable import KeyscopeCore

/// The word-at-a-time escape scan must agree with the byte-by-byte rules wherever the special byte sits, and the
/// writer and the length must agree with each other.
@Suite struct JSONEscapingTests {
    /// Every kind of byte that JSON escapes, and some that it does not (including multi-byte UTF-8).
    static let specials = ["\"", "\\", "\n", "\t", "\u{01}", "\u{1F}", "\u{7F}", "é", "€", "😀", " ", "~"]

    @Test(arguments: specials)
    func aStringIsWrittenEscapedAndMeasuredExactlyWhereverTheSpecialCharacterSits(_ special: String) throws {
        for length in 0...24 {
            for position in 0...length {
                let text =
                    String(repeating: "a", count: position) + special
                    + String(repeating: "b", count: length - position)
                let encoded = StoreValue.string(text).jsonBytes()
                #expect(JSONEscaping.quotedLength(of: text) == encoded.count, "\(text.debugDescription)")
                // The writer's runs and escapes read back as the same text.
                #expect(try StoreValue(jsonBytes: encoded) == .string(text), "\(text.debugDescription)")
            }
        }
    }

    @Test func theScanFindsEverySpecialByteValueAtEveryPositionOfAWord() {
        for value in 0...255 {
            for position in [0, 3, 7, 8, 9, 15, 16, 17, 19] {
                var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 20)
                bytes[position] = UInt8(value)
                let special = value < 0x20 || value == 0x22 || value == 0x5C
                let found = bytes.withUnsafeBufferPointer { JSONEscaping.firstSpecial(in: $0, from: 0) }
                #expect(found == (special ? position : nil), "byte \(value) at \(position)")
            }
        }
    }

    @Test func theScanStartsWhereItIsTold() {
        let bytes = Array("a\"bcdefghijk\\lmnopqrstu\n".utf8)
        var found: [Int] = []
        bytes.withUnsafeBufferPointer { buffer in
            var from = 0
            while let index = JSONEscaping.firstSpecial(in: buffer, from: from) {
                found.append(index)
                from = index + 1
            }
        }
        #expect(found == [1, 12, 23])
    }

    @Test func decimalsAreWrittenAsStringSpellsThem() {
        // Every power of ten and the number below it, both signs, and the extremes.
        let powers = (0...18).map { power in (0..<power).reduce(1) { product, _ in product * 10 } }
        let positive = powers + powers.map { $0 - 1 } + [12_345, Int.max]
        for value in positive + positive.map { -$0 } + [Int.min] {
            let bytes = JSONBuffer.withScratch { buffer in
                buffer.append(0x41)
                buffer.appendDecimal(value)
                return buffer.bytes
            }
            #expect(bytes == [0x41] + Array(String(value).utf8), "\(value)")
        }
        // `.integer` values are `Int64`, and the digit count must stop at the type's largest power of ten.
        for value in [Int64.min, Int64.max, -1, 0, 1_000_000_000_000_000_000] {
            let bytes = JSONBuffer.withScratch { buffer in
                buffer.appendDecimal(value)
                return buffer.bytes
            }
            #expect(bytes == Array(String(value).utf8), "\(value)")
        }
    }
}
