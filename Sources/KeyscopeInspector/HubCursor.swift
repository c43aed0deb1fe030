public import KeyscopeCore
import Synchronization

/// What a cursor read: entries to send, or a resync.
public enum CursorRead: Sendable {
    /// The next entries, in seq order, without gaps: send them as one `changes` frame (``HubMessages/changes(_:)``).
    case entries([HubLogEntry])
    /// The cursor fell behind the log's tail: entries `from...to` will never be sent to it; send
    /// `{"type":"gap","from":…,"to":…}` (``HubMessages/gap(from:to:)``) and then the snapshot, whose seq is `to`.
    /// The cursor continues after it.
    case gap(from: Int, to: Int, snapshot: HubSnapshot)
    /// A fresh snapshot without a gap: the cursor was made to resume after a seq this hub never handed out
    /// (a client of an earlier process, say). The cursor continues after it.
    case snapshot(HubSnapshot)
}

/// One client's position in the hub's log: the seq of the next entry it needs.
///
/// ```swift
/// let (snapshot, cursor) = hub.makeCursor()
/// send(snapshot.messageBytes())
/// // whenever the client is writable:
/// switch cursor.next(maxEntries: 1000, maxBytes: 1 << 20) {
/// case .entries(let entries)?: send(HubMessages.changes(entries))
/// case .gap(let from, let to, let snapshot)?: send(HubMessages.gap(from: from, to: to)); send(snapshot.messageBytes())
/// case .snapshot(let snapshot)?: send(snapshot.messageBytes())
/// case nil: break   // nothing new; wait for the hub's onAppend
/// }
/// if let list = cursor.subscriptionsUpdate() { send(HubMessages.subscriptions(list)) }
/// ```
/// The hub keeps no list of cursors and never waits for one: a cursor is only a number that the log's tail may
/// pass. Reading encodes the entries' lines (once per entry, shared by all cursors) outside the hub's lock.
/// Thread-safe, but meant for one reader (the server's service thread); concurrent reads are serialised.
public final class HubCursor: Sendable {
    public let hub: InspectorHub

    private struct Position {
        var next: Int
        var mustResync: Bool
        /// The hub's subscriptions version when this client was last sent a list (-1: never).
        var subscriptionsSeen: Int
    }

    private let position: Mutex<Position>

    init(hub: InspectorHub, next: Int, mustResync: Bool) {
        self.hub = hub
        self.position = Mutex(Position(next: next, mustResync: mustResync, subscriptionsSeen: -1))
    }

    /// The seq of the next entry this cursor will return.
    public var nextSeq: Int { position.withLock { $0.next } }

    /// The next entries, all that are there up to the limits (at least one, however large, when any is there): many
    /// per read when the stores are busy, whatever is there when they are idle; or a resync; or `nil` when there is
    /// nothing new. `maxBytes` counts the entries' lines and the commas between them.
    public func next(maxEntries: Int = 10_000, maxBytes: Int = 1 << 20) -> CursorRead? {
        position.withLock { position -> CursorRead? in
            enum Plan {
                case send([HubLogEntry])
                case resync(gapFrom: Int?)
            }
            // Settling first keeps the log within its bounds, on this (the reader's) thread rather than the writer's.
            hub.settle()
            let plan = hub.state.withLock { state -> Plan in
                if position.mustResync { return .resync(gapFrom: nil) }
                if position.next < state.log.firstSeq { return .resync(gapFrom: position.next) }
                return .send(state.log.entries(from: position.next, limit: max(1, maxEntries)))
            }
            switch plan {
            case .send(let entries):
                guard !entries.isEmpty else { return nil }
                var bytes = 0
                var count = 0
                for entry in entries {
                    let size = entry.lineBytes.count + (count > 0 ? 1 : 0)
                    if count > 0, bytes + size > maxBytes { break }
                    bytes += size
                    count += 1
                }
                position.next += count
                return .entries(count == entries.count ? entries : Array(entries.prefix(count)))
            case .resync(let gapFrom):
                let snapshot = Self.reposition(&position, to: hub.makeSnapshot())
                return gapFrom.map { .gap(from: $0, to: snapshot.seq, snapshot: snapshot) } ?? .snapshot(snapshot)
            }
        }
    }

    /// A fresh snapshot, with the cursor moved to just after it (the `resync` request).
    public func resync() -> HubSnapshot {
        position.withLock { position in
            Self.reposition(&position, to: hub.makeSnapshot())
        }
    }

    /// Whether the live subscription list changed since this client was last sent one (what
    /// ``subscriptionsUpdate()`` would return, without taking it).
    public var subscriptionsChanged: Bool {
        position.withLock { $0.subscriptionsSeen != hub.subscriptionsVersion }
    }

    /// The live subscription list when it changed since this client was last sent one (with a snapshot or by this
    /// call); `nil` otherwise. A cursor made by ``InspectorHub/makeCursor(resumingAfter:)`` gets a list first.
    public func subscriptionsUpdate() -> [SubscriptionInfo]? {
        position.withLock { position in
            let version = hub.subscriptionsVersion
            guard version != position.subscriptionsSeen else { return nil }
            position.subscriptionsSeen = version
            return hub.subscriptions()
        }
    }

    private static func reposition(
        _ position: inout Position, to made: (snapshot: HubSnapshot, subscriptionsVersion: Int)
    ) -> HubSnapshot {
        position.next = made.snapshot.seq + 1
        position.mustResync = false
        position.subscriptionsSeen = made.subscriptionsVersion
        return made.snapshot
    }
}

extension InspectorHub {
    /// A cursor for a new client, with the snapshot it starts from: the cursor's first entry is `snapshot.seq + 1`.
    public func makeCursor() -> (snapshot: HubSnapshot, cursor: HubCursor) {
        let cursor = HubCursor(hub: self, next: 1, mustResync: true)
        return (cursor.resync(), cursor)
    }

    /// A cursor for a client that reconnects having seen every entry up to `seq`. When `seq + 1` is still in the
    /// log (or is the next seq), it continues from there without a snapshot; when the log's tail has passed it, its
    /// first read is a `gap` and a snapshot; when this hub never handed out `seq`, its first read is a snapshot.
    public func makeCursor(resumingAfter seq: Int) -> HubCursor {
        let known = state.withLock { seq >= 0 && seq <= $0.log.lastSeq }
        return HubCursor(hub: self, next: seq + 1, mustResync: !known)
    }
}
