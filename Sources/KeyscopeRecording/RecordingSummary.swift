public import KeyscopeCodec
import KeyscopeCore

/// What a replayed recording held: counts, times, sizes and the state digest, as `keyscope verify` and
/// `keyscope replay` print them.
///
/// ```swift
/// let result = try RecordingReader.replay(URL(fileURLWithPath: "checkout.kslog"))
/// let summary = result.summary
/// print(summary.events, summary.changes, summary.storesAtEnd, summary.stateDigest)
/// // 12 10 3 5f1c…e9
/// ```
public struct RecordingSummary: Sendable, Hashable {
    /// When the recording began (the header's `createdAt`).
    public var createdAt: LogTime
    /// Event lines read (the `seq` of the last one).
    public var events: Int = 0
    /// Events that are changes.
    public var changes: Int = 0
    /// Events that are store events (`registered`, `reset`, `removed`).
    public var storeEvents: Int = 0
    /// Patches in all changes.
    public var patches: Int = 0
    /// Stores in the header.
    public var storesAtStart: Int
    /// Stores in the state after the last event.
    public var storesAtEnd: Int
    /// The `time` of the first and of the last event; `nil` without events.
    public var firstEventTime: LogTime?
    public var lastEventTime: LogTime?
    /// Lines read, the header included (the torn tail is not a line).
    public var lines: Int = 1
    /// Bytes read: the whole file, torn tail included.
    public var bytesRead: Int = 0
    /// The bytes after the last `\n`, dropped (0 when the file ends with a newline).
    public var tornTailBytes: Int = 0
    /// SHA-256 hex of the state after the last event, exactly as `keyscope state FILE` prints it (JSON and `\n`),
    /// so `keyscope state FILE | sha256sum` shows the same hex.
    public var stateDigest: String

    public init(createdAt: LogTime, storesAtStart: Int, storesAtEnd: Int, stateDigest: String) {
        self.createdAt = createdAt
        self.storesAtStart = storesAtStart
        self.storesAtEnd = storesAtEnd
        self.stateDigest = stateDigest
    }

    /// The summary before the first event of a recording with `header`.
    init(header: RecordingHeader) {
        self.init(
            createdAt: header.createdAt, storesAtStart: header.stores.count, storesAtEnd: header.stores.count,
            stateDigest: "")
    }

    /// The recorded time from the first event to the last; `nil` without events.
    public var duration: Duration? {
        guard let first = firstEventTime, let last = lastEventTime else { return nil }
        return .microseconds(last.microsecondsSince1970 - first.microsecondsSince1970)
    }

    /// Takes the sizes from `reader` and the store count from `state`, and with `digest` the digest of `state`
    /// (which encodes the whole state).
    mutating func finish(reader: RecordingReader, state: ReplayState, digest: Bool = true) {
        storesAtEnd = state.count
        lines = reader.line
        bytesRead = reader.bytesRead
        tornTailBytes = reader.tornTailBytes
        if digest { stateDigest = state.digest.hex }
    }

    /// Counts one more event.
    mutating func count(_ entry: LogEntry) {
        events += 1
        switch entry.event {
        case .change(let change):
            changes += 1
            patches += change.patches.count
        case .registered, .reset, .removed:
            storeEvents += 1
        }
        if firstEventTime == nil { firstEventTime = entry.time }
        lastEventTime = entry.time
    }
}
