import KeyscopeTesting
import Testing

@testable import KeyscopeRecording

/// `LineReader.appendLines` (lines taken a batch at a time, for decoding ahead) gives the lines `nextLine()` gives,
/// with the same numbers, torn tail and errors, whatever the chunk and batch limits.
@Suite struct LineReaderBatchTests {
    /// What a read gave: each line, the error that ended it and where, the torn tail.
    struct Outcome: Equatable {
        var lines: [[UInt8]] = []
        var error: RecordingError?
        var lineNumber = 0
        var tornTailBytes = 0
        var bytesRead = 0
    }

    private static func lineByLine(_ bytes: [UInt8], chunk: Int, maxLine: Int) -> Outcome {
        let reader = LineReader(bytes: bytes, maxLineLength: maxLine, chunkSize: chunk)
        var outcome = Outcome()
        do throws(RecordingError) {
            while let line = try reader.nextLine() { outcome.lines.append(Array(line)) }
        } catch {
            outcome.error = error
        }
        outcome.lineNumber = reader.lineNumber
        outcome.tornTailBytes = reader.tornTailBytes
        outcome.bytesRead = reader.bytesRead
        return outcome
    }

    private static func inBatches(_ bytes: [UInt8], chunk: Int, maxLine: Int, maxBytes: Int, maxLines: Int) -> Outcome {
        let reader = LineReader(bytes: bytes, maxLineLength: maxLine, chunkSize: chunk)
        var outcome = Outcome()
        var more = true
        while more, outcome.error == nil {
            var batch: [UInt8] = []
            var ends: [Int] = []
            do throws(RecordingError) {
                more = try reader.appendLines(to: &batch, ends: &ends, maxBytes: maxBytes, maxLines: maxLines)
            } catch {
                outcome.error = error
            }
            #expect(ends.count <= maxLines)
            // Every line keeps its "\n", and the batch holds nothing else.
            #expect(batch.count == (ends.last.map { $0 + 1 } ?? 0))
            var start = 0
            for end in ends {
                #expect(batch[end] == UInt8(ascii: "\n"))
                outcome.lines.append(Array(batch[start..<end]))
                start = end + 1
            }
        }
        outcome.lineNumber = reader.lineNumber
        outcome.tornTailBytes = reader.tornTailBytes
        outcome.bytesRead = reader.bytesRead
        return outcome
    }

    /// Lines of random lengths (some empty, some over `maxLine` when `tooLong`), then maybe a torn tail.
    private static func text(_ random: inout SplitMix64, lines: Int, tooLong: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        for index in 0..<lines {
            let length = tooLong && index == lines / 2 ? 90 : random.next(in: 0...40)
            bytes += (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            bytes.append(UInt8(ascii: "\n"))
        }
        if random.next(in: 0...1) == 1 { bytes += Array("torn".utf8) }
        return bytes
    }

    @Test(arguments: 1...40)
    func batchesReadTheLinesOneByOneReads(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9)
        let bytes = Self.text(&random, lines: random.next(in: 0...60), tooLong: seed % 4 == 0)
        let chunk = random.next(in: 1...64)
        let expected = Self.lineByLine(bytes, chunk: chunk, maxLine: 64)
        if seed % 4 == 0, bytes.count > 100 { #expect(expected.error?.code == .lineTooLong) }
        let maxBytes = random.next(in: 1...200)
        let maxLines = random.next(in: 1...9)
        let batched = Self.inBatches(bytes, chunk: chunk, maxLine: 64, maxBytes: maxBytes, maxLines: maxLines)
        #expect(batched == expected, "chunk \(chunk), batches of \(maxBytes) bytes or \(maxLines) lines")
    }
}
