import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeRecording
import KeyscopeTesting
import Testing

/// The recordings under `fixtures/broken/`: each fails with the code and line its README gives, except the torn
/// tail, which loads.
@Suite struct ReaderFixturesTests {
    struct Broken: Sendable, CustomTestStringConvertible {
        let file: String
        let code: RecordingError.Code
        let line: Int
        let mentions: String
        var testDescription: String { file }
    }

    static let broken = [
        Broken(file: "bad-seq.kslog-broken", code: .badSeq, line: 4, mentions: "seq 4 follows seq 2"),
        Broken(
            file: "patch-does-not-apply.kslog-broken", code: .patchDoesNotApply, line: 3,
            mentions: "patch 2 of 2 (set \"cart.total\")"),
        Broken(file: "bad-header.kslog-broken", code: .badHeader, line: 1, mentions: "unknown log format version 2"),
        Broken(file: "blank-line.kslog-broken", code: .badLine, line: 3, mentions: "blank"),
    ]

    @Test(arguments: broken)
    func aBrokenFixtureFailsOnItsLine(_ fixture: Broken) {
        #expect {
            try RecordingReader.replay(Fixtures.url("broken/\(fixture.file)"))
        } throws: { error in
            guard let error = error as? RecordingError else { return false }
            return error.code == fixture.code && error.line == fixture.line && error.message.contains(fixture.mentions)
        }
    }

    @Test func theTornTailFixtureLoads() throws {
        let url = Fixtures.url("broken/torn-tail.kslog")
        let result = try RecordingReader.replay(url)
        #expect(result.summary.events == 3)
        #expect(result.summary.changes == 2)
        #expect(result.summary.storeEvents == 1)
        #expect(result.summary.patches == 3)
        #expect(result.summary.storesAtEnd == 2)
        let bytes = try Data(contentsOf: url)
        let lastNewline = try #require(bytes.lastIndex(of: UInt8(ascii: "\n")))
        #expect(result.summary.tornTailBytes == bytes.count - lastNewline - 1)
        #expect(result.summary.bytesRead == bytes.count)
        #expect(
            result.state.value == [
                "app/memory": [
                    "cart": [
                        "currency": "EUR", "total": 45,
                        "items": [["price": 45, "sku": "TEA-01", "title": "Green tea"]],
                    ]
                ],
                "scenario:checkout/memory": ["step": "address"],
            ])
    }

    @Test func everyKslogUnderFixturesLoads() throws {
        let root = Fixtures.root
        let files =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "kslog" } ?? []
        #expect(!files.isEmpty)
        for file in files {
            #expect(throws: Never.self, "\(file.path)") { try RecordingReader.replay(file) }
        }
    }
}
