import FuzzSupport
import KeyscopeCodec
import KeyscopeCore
import KeyscopeRecording

/// The log reader: `RecordingReader` over a whole recording in memory, each event applied to a `ReplayState` as
/// `keyscope verify` does. Properties (LOG-FORMAT.md, the reader's documentation):
/// - reading in chunks of a few bytes gives exactly what reading in one chunk gives (events, error, torn tail);
/// - a short line limit changes nothing but refusing long lines with `line_too_long`;
/// - an event that does not apply leaves the state as it was (whole or not at all);
/// - a recording that reads without error, written again with the codec, reads to the same events and state.
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
        let whole = read(bytes)
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
        _ bytes: [UInt8], chunkSize: Int = LineReader.defaultChunkSize, maxLineLength: Int = 1 << 20
    ) -> Outcome {
        var outcome = Outcome()
        do throws(RecordingError) {
            let reader = try RecordingReader(bytes: bytes, maxLineLength: maxLineLength, chunkSize: chunkSize)
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
