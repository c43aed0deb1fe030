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

/// What ``HubCursor/nextEntries(maxEntries:maxBytes:)`` read.
public enum EntriesRead: Sendable {
    /// As ``CursorRead/entries(_:)``.
    case entries([HubLogEntry])
    /// The cursor's next read is a gap and a snapshot, or a snapshot: nothing was read, and
    /// ``HubCursor/next(maxEntries:maxBytes:)`` makes it.
    case snapshotNeeded
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
/// case nil: break   // nothing new; wait for the hub's appendSignal
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
        switch read(maxEntries: maxEntries, maxBytes: maxBytes, makingSnapshots: true) {
        case .entries(let entries)?: .entries(entries)
        case .other(let read)?: read
        case .snapshotNeeded?, nil: nil
        }
    }

    /// ``next(maxEntries:maxBytes:)`` for a reader that must not make a snapshot (the server's service thread: a
    /// snapshot waits for every store's lock and encodes every store): when the read would be a gap or a snapshot,
    /// it is ``EntriesRead/snapshotNeeded`` and the cursor stays where it is, for ``next(maxEntries:maxBytes:)`` to
    /// make it on another thread.
    public func nextEntries(maxEntries: Int = 10_000, maxBytes: Int = 1 << 20) -> EntriesRead? {
        switch read(maxEntries: maxEntries, maxBytes: maxBytes, makingSnapshots: false) {
        case .entries(let entries)?: .entries(entries)
        case .snapshotNeeded?, .other?: .snapshotNeeded
        case nil: nil
        }
    }

    private enum Read {
        case entries([HubLogEntry])
        case snapshotNeeded
        case other(CursorRead)
    }

    private func read(maxEntries: Int, maxBytes: Int, makingSnapshots: Bool) -> Read? {
        position.withLock { position -> Read? in
            // Settling first keeps the log within its bounds, on this (the reader's) thread rather than the writer's.
            hub.settle()
            var taken: [HubLogEntry] = []
            var bytes = 0
            var full = false
            let limit = max(1, maxEntries)
            // Entries are copied out of the log a chunk at a time, and only as many as the limits let through: the
            // writer waits on the same lock, and a frame's worth of lines is often a tenth of `maxEntries`.
            while !full, taken.count < limit {
                let wanted = min(Self.chunkEntries, limit - taken.count)
                let next = position.next + taken.count
                // Pointers are copied under the hub's lock and retained after it, while settling (the only
                // eviction) waits: the writer never waits for the retains.
                let chunk = hub.settling.withLock { _ -> [HubLogEntry]? in
                    let pointers = hub.state.withLock { state -> [Unmanaged<HubLogEntry>]? in
                        guard !position.mustResync, next >= state.log.firstSeq else { return nil }
                        return state.log.unretainedEntries(from: next, limit: wanted)
                    }
                    return pointers?.map { $0.takeUnretainedValue() }
                }
                guard let chunk else {
                    if !taken.isEmpty { break }  // what was taken is still ours to send; the gap comes next read
                    guard makingSnapshots else { return .snapshotNeeded }
                    let gapFrom = position.mustResync ? nil : position.next
                    let snapshot = Self.reposition(&position, to: hub.makeSnapshot())
                    return .other(
                        gapFrom.map { .gap(from: $0, to: snapshot.seq, snapshot: snapshot) } ?? .snapshot(snapshot))
                }
                for entry in chunk {
                    let size = entry.lineBytes.count + (taken.isEmpty ? 0 : 1)
                    if !taken.isEmpty, bytes + size > maxBytes {
                        full = true
                        break
                    }
                    bytes += size
                    taken.append(entry)
                }
                if chunk.count < wanted { break }  // the log has no more
            }
            guard !taken.isEmpty else { return nil }
            position.next += taken.count
            return .entries(taken)
        }
    }

    /// How many entries one read copies out of the log under the hub's lock at a time.
    static let chunkEntries = 256

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
    /// call); `nil` otherwise. A cursor made by ``InspectorHub/makeCursor(resumingAfter:)`` gets a list first. A
    /// store whose lock a write holds is not waited for: its list is the one it last reported.
    public func subscriptionsUpdate() -> [SubscriptionInfo]? {
        position.withLock { position in
            let version = hub.subscriptionsVersion
            guard version != position.subscriptionsSeen else { return nil }
            position.subscriptionsSeen = version
            return hub.subscriptionsWithoutWaiting()
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
