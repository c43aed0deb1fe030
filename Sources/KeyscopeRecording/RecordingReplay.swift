public import Foundation
public import KeyscopeCodec

/// A recording being replayed into a ``ReplayState``, one event per ``step()``: the reader's checks, then the
/// state's, with counts for the ``summary()``. Holds one line and the state, never the file.
///
/// ```swift
/// let replay = try RecordingReplay(contentsOf: URL(fileURLWithPath: "checkout.kslog"))
/// while let entry = try replay.step() {
///     if entry.seq == 40 { print(replay.state.value) }     // the state right after seq 40
/// }
/// print(replay.summary().stateDigest)
/// ```
/// Not thread-safe. After an error the replay is done: the state is the one before the bad line.
public final class RecordingReplay {
    /// Where the events come from.
    public let reader: RecordingReader
    /// The state after the last event stepped over (the header's before the first).
    public private(set) var state: ReplayState
    private var counts: RecordingSummary

    /// A replay from the header `reader` has read.
    public init(reader: RecordingReader) {
        self.reader = reader
        self.state = ReplayState(header: reader.header)
        self.counts = RecordingSummary(header: reader.header)
    }

    /// A replay of the file at `url`.
    /// - Throws: ``RecordingError`` when the file cannot be opened or its header is bad.
    public convenience init(contentsOf url: URL, maxLineLength: Int = LineReader.defaultMaxLineLength)
        throws(RecordingError)
    {
        self.init(reader: try RecordingReader(contentsOf: url, maxLineLength: maxLineLength))
    }

    /// The recording's header.
    public var header: RecordingHeader { reader.header }

    /// The `seq` of the last event applied (0 before the first).
    public var seq: Int64 { reader.lastSeq }

    /// Reads, checks and applies the next event and returns it; `nil` at the end of the recording.
    /// - Throws: any ``RecordingError`` of ``RecordingReader/next()`` or ``ReplayState/apply(_:line:)``.
    @discardableResult
    public func step() throws(RecordingError) -> LogEntry? {
        guard let entry = try reader.next() else { return nil }
        try state.apply(entry, line: reader.line)
        counts.count(entry)
        return entry
    }

    /// The counts so far and the digest of the current ``state`` (computing the digest encodes the whole state).
    public func summary() -> RecordingSummary {
        var summary = counts
        summary.finish(reader: reader, state: state)
        return summary
    }

    /// ``summary()`` without the digest (its `stateDigest` is empty), for a caller that does not need it.
    func summaryWithoutDigest() -> RecordingSummary {
        var summary = counts
        summary.finish(reader: reader, state: state, digest: false)
        return summary
    }
}
