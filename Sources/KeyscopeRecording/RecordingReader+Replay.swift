public import Foundation
public import KeyscopeCodec

extension RecordingReader {
    /// What ``RecordingReader/replay(_:upTo:maxLineLength:onEvent:)`` found: the state asked for and the summary
    /// of the whole recording.
    public struct Replay: Sendable {
        /// The state after event `seq` (the header's for 0), or after the last event when no seq was given.
        public var state: ReplayState
        /// The whole recording's counts, times and bytes, without the digest (its `stateDigest` is empty): all a
        /// caller that wants a state needs.
        public var counts: RecordingSummary
        /// The state after the last event, for ``summary``'s digest.
        let finalState: ReplayState

        /// The whole recording: ``counts`` and the digest of the state after its last event, computed on each read
        /// (it encodes that whole state), so that a caller that only wants ``state`` never pays for it.
        public var summary: RecordingSummary {
            var summary = counts
            summary.stateDigest = finalState.digest.hex
            return summary
        }
    }

    /// Replays the whole recording at `url`, checking every line, and returns the state after event `seq` (after
    /// the last event when `nil`; the header's for 0) with the summary of the whole file.
    ///
    /// ```swift
    /// let at40 = try RecordingReader.replay(url, upTo: 40).state
    /// let digest = try RecordingReader.replay(url).summary.stateDigest
    /// ```
    /// The file is read to its end even when `seq` comes earlier, so a bad line anywhere is an error (a bad log
    /// has no state, docs/recording.md). `onEvent` is called after each event is applied, with the state then.
    /// - Throws: a ``RecordingError`` (``RecordingError/Code/outOfRange`` when `seq` is negative or beyond the
    ///   last event), or what `onEvent` throws.
    public static func replay(
        _ url: URL, upTo seq: Int64? = nil, maxLineLength: Int = LineReader.defaultMaxLineLength,
        onEvent: (LogEntry, ReplayState) throws -> Void = { _, _ in }
    ) throws -> Replay {
        try RecordingReader(contentsOf: url, maxLineLength: maxLineLength).replay(upTo: seq, onEvent: onEvent)
    }

    /// Replays this reader's recording from its header; see ``replay(_:upTo:maxLineLength:onEvent:)``. The reader
    /// must not have read any event yet.
    public func replay(upTo seq: Int64? = nil, onEvent: (LogEntry, ReplayState) throws -> Void = { _, _ in })
        throws -> Replay
    {
        if let seq, seq < 0 {
            throw RecordingError(.outOfRange, line: nil, "seq \(seq) is not in a recording: seqs start at 0")
        }
        let replay = RecordingReplay(reader: self)
        var captured: ReplayState? = seq == 0 ? replay.state : nil
        while let entry = try replay.step() {
            if entry.seq == seq { captured = replay.state }
            try onEvent(entry, replay.state)
        }
        let counts = replay.summaryWithoutDigest()
        guard let seq else { return Replay(state: replay.state, counts: counts, finalState: replay.state) }
        guard let captured else {
            throw RecordingError(
                .outOfRange, line: nil,
                "seq \(seq) is beyond the recording, whose last event is seq \(counts.events)"
                    + (counts.events == 0 ? " (it has none: 0 is the header's state)" : ""))
        }
        return Replay(state: captured, counts: counts, finalState: replay.state)
    }
}
