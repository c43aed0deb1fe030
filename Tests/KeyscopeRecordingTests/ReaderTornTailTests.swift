import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeRecording
import Testing

/// A last line without its `\n` is a torn tail: dropped and counted, never an error, even when it parses.
@Suite struct ReaderTornTailTests {
    private let complete = [
        TestLog.header, TestLog.setTotal(1, from: 90, to: 100), TestLog.setTotal(2, from: 100, to: 110),
    ]

    @Test func aTornTailThatParsesIsDroppedAndCounted() throws {
        let torn = TestLog.setTotal(3, from: 110, to: 120)
        let reader = try RecordingReader(bytes: TestLog.bytes(complete + [torn], finalNewline: false))
        var seqs: [Int64] = []
        while let entry = try reader.next() { seqs.append(entry.seq) }
        #expect(seqs == [1, 2])
        #expect(reader.tornTailBytes == torn.utf8.count)
        #expect(reader.line == 3)
    }

    @Test func aTornTailThatDoesNotParseIsDroppedToo() throws {
        let bytes = TestLog.bytes(complete) + Array(#"{"patches":[{"op":"se"#.utf8)
        let result = try RecordingReader(bytes: bytes).replay()
        #expect(result.summary.events == 2)
        #expect(result.summary.tornTailBytes == 21)
        #expect(result.summary.bytesRead == bytes.count)
        #expect(result.state[StoreID("app/memory")!]?.root == ["cart": ["total": 110]])
    }

    @Test func aTornTailRightAfterTheHeaderLeavesTheHeaderState() throws {
        let bytes = TestLog.bytes([TestLog.header]) + Array("{".utf8)
        let result = try RecordingReader(bytes: bytes).replay()
        #expect(result.summary.events == 0)
        #expect(result.summary.tornTailBytes == 1)
    }

    @Test func aFileEndingInItsNewlineHasNoTornTail() throws {
        let result = try RecordingReader(bytes: TestLog.bytes(complete)).replay()
        #expect(result.summary.tornTailBytes == 0)
        #expect(result.summary.lines == 3)
    }

    @Test(arguments: [1, 2, 3, 7, 64, 333, LineReader.defaultChunkSize])
    func lineSeamsDoNotMatterWhateverTheChunkSize(chunkSize: Int) throws {
        let lines = complete + [TestLog.setTotal(3, from: 110, to: 120)]
        let bytes = TestLog.bytes(lines) + Array("{\"torn\"".utf8)
        let reader = LineReader(bytes: bytes, chunkSize: chunkSize)
        var read: [String] = []
        while let line = try reader.nextLine() { read.append(String(decoding: line, as: UTF8.self)) }
        #expect(read == lines)
        #expect(reader.tornTailBytes == 7)
        #expect(reader.bytesRead == bytes.count)
        #expect(reader.lineNumber == 4)
    }

    @Test func emptyLinesAreLinesToTheLineReader() throws {
        let reader = LineReader(bytes: Array("a\n\n\nb\n".utf8), chunkSize: 2)
        var read: [String] = []
        while let line = try reader.nextLine() { read.append(String(decoding: line, as: UTF8.self)) }
        #expect(read == ["a", "", "", "b"])
        #expect(reader.tornTailBytes == 0)
    }

    @Test func aFileDescriptorReadsLikeMemory() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reader-fd-\(UUID()).kslog")
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = TestLog.bytes(complete, finalNewline: false)
        try Data(bytes).write(to: url)
        let fromFile = try RecordingReader.replay(url)
        let fromMemory = try RecordingReader(bytes: bytes).replay()
        #expect(fromFile.summary == fromMemory.summary)
        #expect(fromFile.state == fromMemory.state)
        #expect(fromFile.summary.events == 1)
        #expect(fromFile.summary.tornTailBytes == complete[2].utf8.count)
    }
}
