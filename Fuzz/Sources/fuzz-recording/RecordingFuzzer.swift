import FuzzSupport
import KeyscopeCodec
import KeyscopeCore

@testable import KeyscopeRecording

/// The log reader: `RecordingReader` over a whole recording in memory, each event applied to a `ReplayState` as
/// `keyscope verify` does. Properties (LOG-FORMAT.md, the reader's documentation):
/// - reading in chunks of a few bytes gives exactly what reading in one chunk gives (events, error, torn tail);
/// - a short line limit changes nothing but refusing long lines with `line_too_long`;
/// - an event that does not apply leaves the state as it was (whole or not at all);
/// - a recording that reads without error, written again with the codec, reads to the same events and state;
/// - decoding ahead on a second thread gives exactly what decoding line by line gives;
/// - the log line decoder's fast path reads a line only when the reference decoder (jansson) reads it to the same
///   entry, and the decoder's answer for every line is the reference's.
@main
enum RecordingFuzzer {
    static func main() {
        FuzzDriver.run { bytes in check(Array(bytes)) }
    }

    /// What one read of a recording gave.
    struct Outcome: Equatable {
        var header: RecordingHeader?
        var entries: [LogEntry] = []
        var state: ReplayState?
        var error: RecordingError?
        var tornTailBytes = 0

        /// How `other` differs, in a few words (the outcomes themselves can be megabytes of text).
        func difference(from other: Outcome) -> String {
            var parts: [String] = []
            if header != other.header { parts.append("the header") }
            if entries != other.entries {
                let first = zip(entries, other.entries).prefix { $0 == $1 }.count
                parts.append("the events from index \(first) (\(entries.count) vs \(other.entries.count))")
            }
            if state != other.state { parts.append("the state") }
            if error != other.error {
                parts.append(
                    "the error: \(error.map(String.init(describing:)) ?? "none") vs "
                        + (other.error.map(String.init(describing:)) ?? "none"))
            }
            if tornTailBytes != other.tornTailBytes {
                parts.append("the torn tail: \(tornTailBytes) vs \(other.tornTailBytes) bytes")
            }
            return parts.joined(separator: "; ")
        }
    }

    static func check(_ bytes: [UInt8]) {
        checkLines(bytes)
        let whole = read(bytes, decodingAhead: false)
        let ahead = read(bytes, chunkSize: 7, decodingAhead: true)
        FuzzCheck.expect(ahead == whole, "decoding ahead differs in \(ahead.difference(from: whole))")
        let chunk = 1 + Int(bytes.first ?? 0) % 13
        let chunked = read(bytes, chunkSize: chunk)
        FuzzCheck.expect(
            chunked == whole, "reading in \(chunk)-byte chunks differs in \(chunked.difference(from: whole))")
        let short = read(bytes, maxLineLength: 200)
        if let error = short.error, error.code == .lineTooLong {
            FuzzCheck.expect(error.line != nil, "line_too_long without a line")
        } else {
            FuzzCheck.expect(short == whole, "a 200-byte line limit differs in \(short.difference(from: whole))")
        }
        if whole.error == nil, let header = whole.header { checkRewrite(header, whole) }
    }

    static func read(
        _ bytes: [UInt8], chunkSize: Int = LineReader.defaultChunkSize, maxLineLength: Int = 1 << 20,
        decodingAhead: Bool = false
    ) -> Outcome {
        var outcome = Outcome()
        do throws(RecordingError) {
            let lines = LineReader(bytes: bytes, maxLineLength: maxLineLength, chunkSize: chunkSize)
            // Batches of two lines: a short input makes many, and the second thread decodes some of them.
            let reader =
                decodingAhead
                ? try RecordingReader(lines: lines, decodeAheadLinesPerBatch: 2)
                : try RecordingReader(lines: lines, decodingAhead: false)
            outcome.header = reader.header
            var state = ReplayState(header: reader.header)
            outcome.state = state
            while let entry = try reader.next() {
                outcome.entries.append(entry)
                let before = state
                do throws(RecordingError) {
                    try state.apply(entry, line: reader.line)
                } catch {
                    FuzzCheck.expect(state == before, "event \(entry.seq) failed (\(error)) but changed the state")
                    throw error
                }
                outcome.state = state
            }
            outcome.tornTailBytes = reader.tornTailBytes
        } catch {
            outcome.error = error
        }
        return outcome
    }

    /// Each line through the fast path and the reference decoder.
    static func checkLines(_ bytes: [UInt8]) {
        let decoder = LogLineDecoder()
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            let line = Array(line)
            let reference = Result { () throws(JanssonCodecError) in try JanssonCodec.decodeLogEntry(line) }
            line.withUnsafeBufferPointer { buffer in
                if let fast = decoder.fastEntry(buffer) {
                    FuzzCheck.expect(
                        (try? reference.get()) == fast,
                        "the fast path reads a line as \(fast), the reference as \(reference)")
                }
                let decoded = Result { () throws(JanssonCodecError) in try decoder.decode(buffer) }
                FuzzCheck.expect(decoded == reference, "the decoder gives \(decoded), the reference \(reference)")
            }
        }
    }

    static func checkRewrite(_ header: RecordingHeader, _ whole: Outcome) {
        var file = FuzzCheck.success("encoding the header") { try JanssonCodec.encode(header) }
        file.append(UInt8(ascii: "\n"))
        for entry in whole.entries {
            file += FuzzCheck.success("encoding event \(entry.seq)") { try JanssonCodec.encode(entry) }
            file.append(UInt8(ascii: "\n"))
        }
        var again = read(file)
        FuzzCheck.expect(again.error == nil, "the rewritten recording fails: \(String(describing: again.error))")
        again.tornTailBytes = whole.tornTailBytes
        FuzzCheck.expect(again == whole, "the rewritten recording differs in \(again.difference(from: whole))")
    }
}
