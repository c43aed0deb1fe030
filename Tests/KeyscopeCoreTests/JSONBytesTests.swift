import Foundation
import KeyscopeCore
import Testing

/// The hot-path appenders write exactly what the String forms spell.
@Suite struct JSONBytesTests {
    @Test(arguments: [0, 7, -7, 10, 99, 100, 1_234_567_890, Int.max, Int.min])
    func decimalsAreSpelledAsStringDoes(value: Int) {
        var bytes: [UInt8] = Array("x".utf8)
        JSONBytes.appendDecimal(value, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x" + String(value))
    }

    @Test func literalsAreCopiedAsTheyAre() {
        var bytes: [UInt8] = []
        JSONBytes.appendLiteral(#"{"seq":"#, to: &bytes)
        JSONBytes.appendLiteral("é", to: &bytes)
        #expect(bytes == Array(#"{"seq":é"#.utf8))
    }

    @Test func uuidsAreTheirLowerCasedString() {
        for uuid in [UUID(), UUID(), UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 255))] {
            var bytes: [UInt8] = []
            JSONBytes.appendLowercased(uuid, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == uuid.uuidString.lowercased())
        }
    }
}
