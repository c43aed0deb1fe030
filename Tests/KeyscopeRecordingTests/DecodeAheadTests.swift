import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeTesting
import Testing

@testable import KeyscopeRecording

/// Decoding ahead on a second thread changes nothing a reader returns or throws: the same events, the same error at
/// the same line, the same torn tail, whatever the batch and chunk sizes.
@Suite struct DecodeAheadTests {
    /// Everything a read of `bytes` gave, to compare two ways of reading.
    struct Outcome: Equatable {
        var entries: [LogEntry] = []
        var lines: [Int] = []
        var error: RecordingError?
        var tornTailBytes = 0
        var bytesRead = 0
        var finalState: ReplayState?
    }

    private static func read(_ bytes: [UInt8], linesPerBatch: Int?, chunkSize: Int, maxLine: Int = 1 << 20) -> Outcome {
        var outcome = Outcome()
        do throws(RecordingError) {
            let lines = LineReader(bytes: bytes, maxLineLength: maxLine, chunkSize: chunkSize)
            let reader: RecordingReader
            if let linesPerBatch {
                reader = try RecordingReader(lines: lines, decodeAheadLinesPerBatch: linesPerBatch)
            } else {
                reader = try RecordingReader(lines: lines, decodingAhead: false)
            }
            var state = ReplayState(header: reader.header)
            while let entry = try reader.next() {
                outcome.entries.append(entry)
                outcome.lines.append(reader.line)
                try state.apply(entry, line: reader.line)
            }
            outcome.tornTailBytes = reader.tornTailBytes
            outcome.bytesRead = reader.bytesRead
            outcome.finalState = state
        } catch {
            outcome.error = error
        }
        return outcome
    }

    private static func expectSameReads(
        _ bytes: [UInt8], seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var random = SplitMix64(seed: seed)
        let sequential = read(bytes, linesPerBatch: nil, chunkSize: LineReader.defaultChunkSize)
        for _ in 0..<3 {
            let batch = random.next(in: 1...9)
            let chunk = random.next(in: 1...300)
            let ahead = read(bytes, linesPerBatch: batch, chunkSize: chunk)
            #expect(
                ahead == sequential, "batches of \(batch) lines, chunks of \(chunk) bytes",
                sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: (1...12).map { UInt64($0) &* 0x9E37_79B9 })
    func randomSessionsReadAlike(seed: UInt64) throws {
        var session = PropertySession(seed: seed)
        let outcome = try session.run(steps: 150)
        Self.expectSameReads(outcome.bytes, seed: seed)
    }

    /// A session with one line spoiled in the middle: the error comes at that line, after the same events.
    @Test(arguments: [
        "", "   ", "{", #"{"patches":[],"seq":99,"store":"app/memory","time":"2026-11-21T10:00:00.000000Z"}"#,
        String(repeating: "x", count: 2000),
    ])
    func aBadLineInTheMiddleIsTheSameErrorAtTheSameLine(_ bad: String) throws {
        var session = PropertySession(seed: 7)
        let outcome = try session.run(steps: 80)
        var lines = String(decoding: outcome.bytes, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 40)
        lines[30] = Substring(bad)
        let bytes = Array(lines.joined(separator: "\n").utf8)
        let sequential = Self.read(bytes, linesPerBatch: nil, chunkSize: 4096, maxLine: 1000)
        #expect(sequential.error?.line == 31)
        #expect(sequential.entries.count == 29)
        for batch in [1, 2, 5, 64] {
            #expect(Self.read(bytes, linesPerBatch: batch, chunkSize: 100, maxLine: 1000) == sequential, "\(batch)")
        }
    }

    @Test func aTornTailIsDroppedAlike() throws {
        var session = PropertySession(seed: 11)
        let outcome = try session.run(steps: 60)
        Self.expectSameReads(outcome.bytes + Array(#"{"patches":[],"seq":"#.utf8), seed: 11)
        Self.expectSameReads(Array(outcome.bytes.dropLast()), seed: 12)
    }

    @Test func aLongRecordingStaysWithinItsBatches() throws {
        var session = PropertySession(seed: 3)
        let outcome = try session.run(steps: 400)
        let reader = try RecordingReader(lines: LineReader(bytes: outcome.bytes), decodeAheadLinesPerBatch: 8)
        let result = try reader.replay()
        #expect(result.summary.events == outcome.events.count)
        #expect(result.state.value == outcome.checkpoints[Int64(outcome.events.count)])
        // Four batches of eight lines at most, beside the line reader's own buffer.
        #expect(reader.peakBufferBytes < 2 * LineReader.defaultChunkSize + 4 * (DecodeAhead.bytesPerBatch + 64 << 10))
    }
}
