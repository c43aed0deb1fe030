import KeyscopeCore
import Testing

@testable import KeyscopeInspector

/// The string estimate is exact: its word-at-a-time escape check must agree with the writer at every position.
@Suite struct JSONSizeEstimateTests {
    /// Every byte that JSON escapes, and some that it does not (including multi-byte UTF-8).
    static let specials = ["\"", "\\", "\n", "\t", "\u{01}", "\u{1F}", "\u{7F}", "é", "€", "😀", " ", "~"]

    @Test(arguments: specials)
    func aStringIsEstimatedAtItsEncodedLengthWhereverTheSpecialCharacterSits(_ special: String) {
        for length in 0...24 {
            for position in 0...length {
                let text = String(repeating: "a", count: position) + special
                    + String(repeating: "b", count: length - position)
                let encoded = StoreValue.string(text).jsonBytes()
                #expect(JSONSizeEstimate.string(text) == encoded.count, "\(text.debugDescription)")
            }
        }
    }

    @Test func theEscapeCheckAgreesWithAByteByByteOneOnEveryByteValue() {
        for value in 0...255 {
            for position in [0, 3, 7, 8, 9, 15, 16, 17] {
                var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 20)
                bytes[position] = UInt8(value)
                let expected = value < 0x20 || value == 0x22 || value == 0x5C
                let found = bytes.withUnsafeBufferPointer { JSONSizeEstimate.needsEscape($0) }
                #expect(found == expected, "byte \(value) at \(position)")
            }
        }
    }
}
