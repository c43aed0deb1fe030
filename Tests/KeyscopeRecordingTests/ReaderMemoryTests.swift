import Foundation
import KeyscopeCodec
import KeyscopeCore
import Testing

@testable import KeyscopeRecording

/// The reader holds a few lines at a time: reading a 48 MB recording never needs more than a few chunks of buffer
/// and the few batches of lines decoded ahead.
@Suite struct ReaderMemoryTests {
    /// A recording of `lines` changes that each replace a 4 KiB string (the state stays one string).
    private static func writeLargeRecording(to url: URL, lines: Int) throws -> Int {
        func blob(_ index: Int) -> String {
            String(repeating: String(UnicodeScalar(UInt8(97 + index % 26))), count: 4000)
        }
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var text =
            #"{"createdAt":"2026-11-21T10:00:00.000000Z","format":"keyscope-log","stores":[{"id":"app/memory","#
            + #""root":{"blob":"\#(blob(0))"},"version":"1.0.0"}],"version":1}"# + "\n"
        var written = 0
        for seq in 1...lines {
            text +=
                #"{"patches":[{"new":"\#(blob(seq))","old":"\#(blob(seq - 1))","op":"set","path":"blob"}],"#
                + #""seq":\#(seq),"store":"app/memory","time":"2026-11-21T10:00:00.000000Z","txn":null}"# + "\n"
            if text.utf8.count > 1 << 20 || seq == lines {
                try handle.write(contentsOf: Data(text.utf8))
                written += text.utf8.count
                text = ""
            }
        }
        return written
    }

    @Test func aLargeRecordingIsReadWithABoundedBuffer() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reader-large-\(UUID()).kslog")
        defer { try? FileManager.default.removeItem(at: url) }
        let size = try Self.writeLargeRecording(to: url, lines: 6_000)
        #expect(size > 48_000_000)
        let reader = try RecordingReader(contentsOf: url)
        let result = try reader.replay()
        #expect(result.summary.events == 6_000)
        #expect(result.summary.bytesRead == size)
        // One chunk of scratch plus a buffer of about a chunk and a line, and the batches decoded ahead (each up to
        // its size and one more line); a reader that kept the file would hold all 48 MB.
        let batches = DecodeAhead.inFlight * (DecodeAhead.bytesPerBatch + 8 << 10)
        #expect(
            reader.peakBufferBytes < 4 * LineReader.defaultChunkSize + batches, "peak \(reader.peakBufferBytes) bytes")
    }

    @Test func aLineOverTheLimitIsRefusedBeforeItIsAllRead() throws {
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 8 << 20)
        let lines = LineReader(bytes: Array("short\n".utf8) + line + [UInt8(ascii: "\n")], maxLineLength: 1 << 20)
        #expect(try lines.nextLine().map(Array.init) == Array("short".utf8))
        #expect {
            try lines.nextLine()
        } throws: { error in
            (error as? RecordingError)?.code == .lineTooLong && (error as? RecordingError)?.line == 2
        }
        #expect(lines.peakBufferBytes < 3 << 20, "peak \(lines.peakBufferBytes) bytes")
    }
}
