public import Foundation
public import KeyscopeCodec
import KeyscopeCore

/// Reads a recording (docs/recording.md) as it streams: the header when it is made, then one event per ``next()``,
/// checking every rule of the format on the way. Memory holds a few lines at a time (with decoding ahead, a few
/// small batches of them), never the file.
///
/// ```swift
/// let reader = try RecordingReader(contentsOf: URL(fileURLWithPath: "checkout.kslog"))
/// print(reader.header.stores.map(\.id))
/// while let entry = try reader.next() {
///     print(reader.line, entry.seq, entry.event.storeID)
/// }
/// if reader.tornTailBytes > 0 { print("torn tail: \(reader.tornTailBytes) bytes dropped") }
/// ```
/// Errors are ``RecordingError``s naming the 1-based line (the header is line 1): no complete header on line 1 is
/// ``RecordingError/Code/badHeader``; a blank line, invalid JSON, a wrong type or an unknown event kind is
/// ``RecordingError/Code/badLine``; a `seq` that does not start at 1 and rise by exactly 1 is
/// ``RecordingError/Code/badSeq``. Unknown keys are ignored. Whether a change applies to the state is checked by
/// ``ReplayState``, not here. A last line without its `\n` is a torn tail: dropped and reported, never an error.
///
/// Not thread-safe. After an error the reader is done: do not call ``next()`` again.
public final class RecordingReader {
    /// Line 1.
    public let header: RecordingHeader
    private let lines: LineReader
    private let decoder = LogLineDecoder()
    /// Decoding on a second thread, when the reader was made with `decodingAhead`.
    private let ahead: DecodeAhead?
    private var batch: DecodeAhead.Batch?
    private var batchIndex = 0
    /// The line of the last event handed out (1 after the header).
    private var lineNumber = 1
    /// The `seq` of the last event read (0 before the first).
    public private(set) var lastSeq: Int64 = 0
    /// Whether ``next()`` has returned `nil`.
    public private(set) var isAtEnd = false

    /// Whether readers decode ahead on a second thread unless told otherwise: on a machine with more than one core,
    /// unless the environment sets `KEYSCOPE_DECODE_AHEAD` to `0` (or to `1`, to decode ahead even on one core).
    public static let decodesAheadByDefault: Bool = {
        switch ProcessInfo.processInfo.environment["KEYSCOPE_DECODE_AHEAD"] {
        case "0": false
        case "1": true
        default: ProcessInfo.processInfo.activeProcessorCount > 1
        }
    }()

    /// Reads the header of `lines`.
    ///
    /// With `decodingAhead`, lines after the header are read a few hundred KiB ahead and decoded on a second thread
    /// while the caller works on the events before them (replay is then up to about twice as fast on two cores).
    /// What the reader returns and throws, and at which line, is the same either way.
    /// - Throws: ``RecordingError`` on line 1 (``RecordingError/Code/badHeader``,
    ///   ``RecordingError/Code/lineTooLong`` or ``RecordingError/Code/io``).
    public convenience init(lines: LineReader, decodingAhead: Bool = RecordingReader.decodesAheadByDefault)
        throws(RecordingError)
    {
        try self.init(lines: lines, ahead: decodingAhead ? DecodeAhead(lines: lines) : nil)
    }

    /// A reader that decodes ahead in batches of at most `linesPerBatch` lines (tests: many batches, few lines).
    convenience init(lines: LineReader, decodeAheadLinesPerBatch linesPerBatch: Int) throws(RecordingError) {
        try self.init(lines: lines, ahead: DecodeAhead(lines: lines, linesPerBatch: linesPerBatch))
    }

    private init(lines: LineReader, ahead: DecodeAhead?) throws(RecordingError) {
        self.lines = lines
        self.ahead = ahead
        guard let first = try lines.nextLine() else {
            let reason =
                lines.tornTailBytes > 0
                ? "line 1 has no final newline (\(lines.tornTailBytes) bytes): a recording needs a complete header line"
                : "\(lines.name) is empty: a recording needs a header line"
            throw RecordingError(.badHeader, line: 1, reason)
        }
        guard !first.withUnsafeBufferPointer(Self.isBlank) else {
            throw RecordingError(.badHeader, line: 1, "line 1 is blank: a recording starts with its header")
        }
        do {
            header = try JanssonCodec.decodeRecordingHeader(first)
        } catch {
            throw RecordingError(.badHeader, line: 1, "not a recording header: \(Self.describe(error))")
        }
    }

    /// A reader of the file at `url`; see ``init(lines:decodingAhead:)``.
    public convenience init(
        contentsOf url: URL, maxLineLength: Int = LineReader.defaultMaxLineLength,
        decodingAhead: Bool = RecordingReader.decodesAheadByDefault
    ) throws(RecordingError) {
        try self.init(
            lines: LineReader(contentsOf: url, maxLineLength: maxLineLength), decodingAhead: decodingAhead)
    }

    /// A reader of `bytes` (for tests and for recordings already in memory); see ``init(lines:decodingAhead:)``.
    public convenience init(
        bytes: [UInt8], maxLineLength: Int = LineReader.defaultMaxLineLength,
        chunkSize: Int = LineReader.defaultChunkSize, decodingAhead: Bool = RecordingReader.decodesAheadByDefault
    ) throws(RecordingError) {
        try self.init(
            lines: LineReader(bytes: bytes, maxLineLength: maxLineLength, chunkSize: chunkSize),
            decodingAhead: decodingAhead)
    }

    /// The next event, or `nil` at the end of the recording (a torn tail is dropped then).
    /// - Throws: ``RecordingError`` with the line's number: ``RecordingError/Code/badLine``,
    ///   ``RecordingError/Code/badSeq``, ``RecordingError/Code/lineTooLong`` or ``RecordingError/Code/io``.
    public func next() throws(RecordingError) -> LogEntry? {
        guard !isAtEnd else { return nil }
        guard let (number, decoded) = try nextLine() else {
            isAtEnd = true
            return nil
        }
        lineNumber = number
        let entry: LogEntry
        switch decoded {
        case .entry(let decodedEntry):
            entry = decodedEntry
        case .blank:
            throw RecordingError(.badLine, line: number, "the line is blank; every line after the header is one event")
        case .invalid(let error):
            throw RecordingError(.badLine, line: number, Self.describe(error))
        }
        guard entry.seq == lastSeq + 1 else {
            let reason =
                lastSeq == 0
                ? "the first event has seq \(entry.seq); seq starts at 1"
                : "seq \(entry.seq) follows seq \(lastSeq); seq must rise by exactly 1"
            throw RecordingError(.badSeq, line: number, reason)
        }
        lastSeq = entry.seq
        return entry
    }

    /// The next line's number and what it decodes to; `nil` at the end.
    private func nextLine() throws(RecordingError) -> (Int, DecodeAhead.Line)? {
        guard let ahead else {
            guard let bytes = try lines.nextLine() else { return nil }
            let decoded = bytes.withUnsafeBufferPointer { line -> DecodeAhead.Line in
                if Self.isBlank(line) { return .blank }
                do throws(JanssonCodecError) {
                    return .entry(try decoder.decode(line))
                } catch {
                    return .invalid(error)
                }
            }
            return (lines.lineNumber, decoded)
        }
        while true {
            if let batch, batchIndex < batch.decoded.count {
                // Moved out, not copied: a copy would retain every part of the entry, and the batch release it again.
                var line = DecodeAhead.Line.blank
                swap(&line, &batch.decoded[batchIndex])
                batchIndex += 1
                return (batch.firstLine + batchIndex - 1, line)
            }
            if let failure = batch?.failure { throw failure }
            batch = ahead.nextBatch()
            batchIndex = 0
            if batch == nil { return nil }
        }
    }

    /// The line number of the last line read: 1 after the header, then the line of the last event.
    public var line: Int { lineNumber }
    /// Every byte read from the source so far (the whole file once at the end, torn tail included).
    public var bytesRead: Int { lines.bytesRead }
    /// The bytes after the last `\n`, dropped as a torn tail; known once ``next()`` returned `nil`.
    public var tornTailBytes: Int { lines.tornTailBytes }
    /// The most memory the line buffers held at once (the batches decoded ahead included).
    public var peakBufferBytes: Int { lines.peakBufferBytes + (ahead?.peakBatchBytes ?? 0) }
    /// Where the recording is read from (a path, `standard input`, `memory`), for messages.
    public var sourceName: String { lines.name }

    /// Nothing but spaces, tabs and carriage returns (or nothing at all).
    static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        // An event line starts with "{": only a line that does not needs the whole look.
        if line.first == UInt8(ascii: "{") { return false }
        return line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
    }

    /// The codec's reason, with a syntax error's place given within the line (its own "line 1" would mislead).
    private static func describe(_ error: JanssonCodecError) -> String {
        if error.code == .syntax, let column = error.column {
            return "invalid JSON at column \(column): \(error.message)"
        }
        return error.description
    }
}
