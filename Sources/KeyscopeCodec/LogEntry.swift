public import KeyscopeCore

/// One event line of a recording or of the wire's `changes` entries (docs/recording.md): a sequence number, a time and
/// what happened.
///
/// ```swift
/// let entry = LogEntry(seq: 1, time: LogTime(rfc3339: "2026-11-21T10:00:00.125000Z")!,
///                      event: .change(StoreChange(storeID: StoreID("app/memory")!, patches: [patch])))
/// let line = try JanssonCodec.encode(entry)        // {"patches":[…],"seq":1,"store":"app/memory",…,"txn":null}
/// try JanssonCodec.decodeLogEntry(line) == entry   // true
/// ```
public struct LogEntry: Sendable, Hashable {
    /// The event's number in its recording: 1 for the first event line, then rising by exactly 1.
    public var seq: Int64
    /// When it happened.
    public var time: LogTime
    /// What happened.
    public var event: LogEvent

    public init(seq: Int64, time: LogTime, event: LogEvent) {
        self.seq = seq
        self.time = time
        self.event = event
    }
}

/// What a log line records: a change, or a store event (a line with an `event` key).
///
/// ```swift
/// // {"event":"reset","seq":7,"store":"app/userPrefs","time":"…","version":"2.0.0"}
/// let event = LogEvent.reset(StoreID("app/userPrefs")!, version: "2.0.0")
/// ```
public enum LogEvent: Sendable, Hashable {
    /// A write or a transaction: `{"patches", "seq", "store", "time", "txn"}`.
    case change(StoreChange)
    /// A store joined, with its root and version: `{"event": "registered", "root", "seq", "store", "time",
    /// "version"}`.
    case registered(StoreID, version: SemanticVersion, root: StoreValue)
    /// The major-version drop: the store's root is now `{}`: `{"event": "reset", …, "version"}`.
    case reset(StoreID, version: SemanticVersion)
    /// The store is no longer part of the state: `{"event": "removed", …}`.
    case removed(StoreID)

    /// The store the event is about.
    public var storeID: StoreID {
        switch self {
        case .change(let change): change.storeID
        case .registered(let id, _, _), .reset(let id, _), .removed(let id): id
        }
    }

    /// The log event for a store activity; `nil` for subscription changes, which are not logged.
    public init?(_ activity: StoreActivity) {
        switch activity {
        case .registered(let id, let version, let root): self = .registered(id, version: version, root: root)
        case .changed(let change): self = .change(change)
        case .reset(let id, let version): self = .reset(id, version: version)
        case .removed(let id): self = .removed(id)
        case .subscriptionsChanged: return nil
        }
    }

    /// The `event` key's value for a store event; `nil` for a change.
    var kind: String? {
        switch self {
        case .change: nil
        case .registered: "registered"
        case .reset: "reset"
        case .removed: "removed"
        }
    }
}
