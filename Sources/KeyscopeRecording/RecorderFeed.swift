public import KeyscopeCodec
public import KeyscopeCore
public import KeyscopeInspector

/// Where a ``HubRecorder`` reads: the state a recording starts from, then the events after it, in order. A hub's log
/// is one (``HubFeed``); a fleet dashboard's mirror of an instance is another (`KeyscopeFleet`).
public protocol RecorderFeed: AnyObject, Sendable {
    /// The state the recording starts from (its header), taken once.
    func begin() -> RecorderStart
    /// The live seq of the newest event there is now.
    var lastSeq: Int { get }
    /// The live seq of the next event ``next(maxEntries:maxBytes:)`` gives.
    var nextSeq: Int { get }
    /// The subscription list (docs/protocol.md shape) when it changed since the last call.
    func subscriptionsUpdate() -> StoreValue?
    /// The next events (at most `maxEntries`, about `maxBytes`), or why there are none to follow on with.
    func next(maxEntries: Int, maxBytes: Int) -> RecorderRead?
}

/// The state a recording starts from: every store, the live seq it is at, the subscriptions then.
public struct RecorderStart: Sendable {
    public var stores: [RecordingHeader.Store]
    public var liveSeq: Int
    public var subscriptions: StoreValue

    public init(stores: [RecordingHeader.Store], liveSeq: Int, subscriptions: StoreValue) {
        self.stores = stores
        self.liveSeq = liveSeq
        self.subscriptions = subscriptions
    }
}

/// One event of the feed: what the writer appends.
public struct RecorderEvent: Sendable {
    public var event: LogEvent
    public var time: LogTime
    public var liveSeq: Int
    /// The event's line as the live inspector encoded it, when there is one (saves encoding it again).
    public var encoded: [UInt8]?

    public init(event: LogEvent, time: LogTime, liveSeq: Int, encoded: [UInt8]?) {
        self.event = event
        self.time = time
        self.liveSeq = liveSeq
        self.encoded = encoded
    }
}

/// What reading a feed gave.
public enum RecorderRead: Sendable {
    case events([RecorderEvent])
    /// Events `from…to` are gone before the recorder read them: the recording ends there (`fell-behind`).
    case lost(from: Int, to: Int)
    /// The feed no longer follows the recorder's position (a restart): the recording ends.
    case lostThread
}

/// A hub's log as a recorder's feed: its snapshot, then its cursor.
public final class HubFeed: RecorderFeed {
    public let hub: InspectorHub
    private let cursor: HubCursor
    private let snapshot: HubSnapshot

    public init(hub: InspectorHub) {
        self.hub = hub
        (snapshot, cursor) = hub.makeCursor()
    }

    public func begin() -> RecorderStart {
        RecorderStart(
            stores: snapshot.stores.map { RecordingHeader.Store(id: $0.id, version: $0.version, root: $0.root) },
            liveSeq: snapshot.seq, subscriptions: HubRecorder.list(snapshot.subscriptions))
    }

    public var lastSeq: Int { hub.lastSeq }
    public var nextSeq: Int { cursor.nextSeq }

    public func subscriptionsUpdate() -> StoreValue? { cursor.subscriptionsUpdate().map(HubRecorder.list) }

    public func next(maxEntries: Int, maxBytes: Int) -> RecorderRead? {
        switch cursor.next(maxEntries: maxEntries, maxBytes: maxBytes) {
        case .entries(let entries)?:
            return .events(
                entries.map { entry in
                    RecorderEvent(
                        event: HubRecorder.event(entry), time: entry.time, liveSeq: entry.seq,
                        encoded: entry.lineBytes)
                })
        case .gap(let from, let to, _)?: return .lost(from: from, to: to)
        case .snapshot?: return .lostThread
        case nil: return nil
        }
    }
}
