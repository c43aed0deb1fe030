public import Foundation
public import KeyscopeCodec
import KeyscopeCore

/// Reads a recording (LOG-FORMAT.md) as it streams: the header when it is made, then one event per ``next()``,
/// checking every rule of the format on the way. Memory holds one line at a time, never the file.
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
    /// The `seq` of the last event read (0 before the first).
    public private(set) var lastSeq: Int64 = 0
    /// Whether ``next()`` has returned `nil`.
    public private(set) var isAtEnd = false

    /// Reads the header of `lines`.
    /// - Throws: ``RecordingError`` on line 1 (``RecordingError/Code/badHeader``,
    ///   ``RecordingError/Code/lineTooLong`` or ``RecordingError/Code/io``).
    public init(lines: LineReader) throws(RecordingError) {
        self.lines = lines
        guard let first = try lines.nextLine() else {
            let reason =
                lines.tornTailBytes > 0
                ? "line 1 has no final newline (\(lines.tornTailBytes) bytes): a recording needs a complete header line"
                : "\(lines.name) is empty: a recording needs a header line"
            throw RecordingError(.badHeader, line: 1, reason)
        }
        guard !Self.isBlank(first) else {
            throw RecordingError(.badHeader, line: 1, "line 1 is blank: a recording starts with its header")
        }
        do {
            header = try JanssonCodec.decodeRecordingHeader(first)
        } catch {
            throw RecordingError(.badHeader, line: 1, "not a recording header: \(Self.describe(error))")
        }
    }

    /// A reader of the file at `url`; see ``init(lines:)``.
    public convenience init(contentsOf url: URL, maxLineLength: Int = LineReader.defaultMaxLineLength)
        throws(RecordingError)
    {
        try self.init(lines: LineReader(contentsOf: url, maxLineLength: maxLineLength))
    }

    /// A reader of `bytes` (for tests and for recordings already in memory); see ``init(lines:)``.
    public convenience init(
        bytes: [UInt8], maxLineLength: Int = LineReader.defaultMaxLineLength,
        chunkSize: Int = LineReader.defaultChunkSize
    ) throws(RecordingError) {
        try self.init(lines: LineReader(bytes: bytes, maxLineLength: maxLineLength, chunkSize: chunkSize))
    }

    /// The next event, or `nil` at the end of the recording (a torn tail is dropped then).
    /// - Throws: ``RecordingError`` with the line's number: ``RecordingError/Code/badLine``,
    ///   ``RecordingError/Code/badSeq``, ``RecordingError/Code/lineTooLong`` or ``RecordingError/Code/io``.
    public func next() throws(RecordingError) -> LogEntry? {
        guard !isAtEnd else { return nil }
        guard let bytes = try lines.nextLine() else {
            isAtEnd = true
            return nil
        }
        let number = lines.lineNumber
        guard !Self.isBlank(bytes) else {
            throw RecordingError(.badLine, line: number, "the line is blank; every line after the header is one event")
        }
        let entry: LogEntry
        do {
            entry = try JanssonCodec.decodeLogEntry(bytes)
        } catch {
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

    /// The line number of the last line read: 1 after the header, then the line of the last event.
    public var line: Int { lines.lineNumber }
    /// Every byte read from the source so far (the whole file once at the end, torn tail included).
    public var bytesRead: Int { lines.bytesRead }
    /// The bytes after the last `\n`, dropped as a torn tail; known once ``next()`` returned `nil`.
    public var tornTailBytes: Int { lines.tornTailBytes }
    /// The most memory the line buffer held at once.
    public var peakBufferBytes: Int { lines.peakBufferBytes }
    /// Where the recording is read from (a path, `standard input`, `memory`), for messages.
    public var sourceName: String { lines.name }

    /// Nothing but spaces, tabs and carriage returns (or nothing at all).
    private static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
    }

    /// The codec's reason, with a syntax error's place given within the line (its own "line 1" would mislead).
    private static func describe(_ error: JanssonCodecError) -> String {
        if error.code == .syntax, let column = error.column {
            return "invalid JSON at column \(column): \(error.message)"
        }
        return error.description
    }
}
