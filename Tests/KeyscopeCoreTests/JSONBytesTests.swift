import Foundation
import KeyscopeCore
import Testing

/// Literals are appended as their UTF-8 bytes.
@Suite struct JSONBytesTests {
    @Test func literalsAreCopiedAsTheyAre() {
        var bytes: [UInt8] = []
        JSONBytes.appendLiteral(#"{"seq":"#, to: &bytes)
        JSONBytes.appendLiteral("é", to: &bytes)
        #expect(bytes == Array(#"{"seq":é"#.utf8))
    }
}
