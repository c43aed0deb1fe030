import Synchronization

/// A client's place in one instance's log, as the fleet dashboard follows it.
public struct FleetCursor: Sendable, Hashable {
    public let instance: String
    /// The seq of the next entry the client needs.
    public internal(set) var next: Int
    /// The instance's run the client's state came from: another run (a restart) starts it over with a snapshot.
    var epoch: String
    var subscriptionsSeen: Int
}

/// What reading a ``FleetCursor`` gave.
public enum FleetRead: Sendable {
    /// The next log lines of the instance, in seq order.
    case entries([[UInt8]])
    /// The client fell behind what the dashboard holds: entries `from…to` will not be sent; the snapshot (seq `to`)
    /// follows.
    case gap(from: Int, to: Int, snapshot: [UInt8])
    /// The instance restarted (a new run, seqs from 1 again): its snapshot.
    case snapshot([UInt8])
}

extension FleetView {
    /// A cursor at the instance's current state, and that state's `snapshot` message; `nil` when the instance is
    /// unknown or not read yet.
    public func makeCursor(instance id: String) -> (snapshot: [UInt8], cursor: FleetCursor)? {
        state.withLock { state in
            guard let mirror = state.instances[id]?.mirror else { return nil }
            let cursor = FleetCursor(
                instance: id, next: mirror.seq + 1, epoch: mirror.epoch, subscriptionsSeen: mirror.subscriptionsVersion)
            return (mirror.snapshotMessage(instance: id), cursor)
        }
    }

    /// A cursor for a client that resumes after `seq` (docs/protocol.md "Resuming"): at `seq + 1`, with no snapshot,
    /// when the instance has reached `seq` (reading it gives a gap and a snapshot when the dashboard no longer holds
    /// `seq + 1`); at the current state, with its snapshot, when `seq` is beyond anything the instance handed out.
    /// The cursor has seen no subscription list, so the list comes first. `nil` when the instance is not read yet.
    public func resumeCursor(instance id: String, after seq: Int) -> (snapshot: [UInt8]?, cursor: FleetCursor)? {
        state.withLock { state in
            guard let mirror = state.instances[id]?.mirror else { return nil }
            let beyond = seq > mirror.seq
            let cursor = FleetCursor(
                instance: id, next: beyond ? mirror.seq + 1 : seq + 1, epoch: mirror.epoch, subscriptionsSeen: -1)
            return (beyond ? mirror.snapshotMessage(instance: id) : nil, cursor)
        }
    }

    /// The next lines for the cursor (at most `maxEntries`, about `maxBytes`), a gap, or a restart; `nil` when
    /// there is nothing new (or the instance is no longer known).
    public func read(_ cursor: inout FleetCursor, maxEntries: Int, maxBytes: Int) -> FleetRead? {
        state.withLock { state -> FleetRead? in
            guard let mirror = state.instances[cursor.instance]?.mirror else { return nil }
            if mirror.epoch != cursor.epoch {
                cursor.epoch = mirror.epoch
                cursor.next = mirror.seq + 1
                cursor.subscriptionsSeen = mirror.subscriptionsVersion
                return .snapshot(mirror.snapshotMessage(instance: cursor.instance))
            }
            guard cursor.next <= mirror.seq else { return nil }
            guard let lines = mirror.entries(from: cursor.next, maxEntries: maxEntries, maxBytes: maxBytes) else {
                let from = cursor.next
                cursor.next = mirror.seq + 1
                cursor.subscriptionsSeen = mirror.subscriptionsVersion
                return .gap(from: from, to: mirror.seq, snapshot: mirror.snapshotMessage(instance: cursor.instance))
            }
            cursor.next += lines.count
            return .entries(lines)
        }
    }

    /// The instance's subscription list as a `subscriptions` message when it changed since the cursor last saw it.
    public func subscriptionsUpdate(_ cursor: inout FleetCursor) -> [UInt8]? {
        state.withLock { state -> [UInt8]? in
            guard let mirror = state.instances[cursor.instance]?.mirror,
                mirror.subscriptionsVersion != cursor.subscriptionsSeen
            else { return nil }
            cursor.subscriptionsSeen = mirror.subscriptionsVersion
            return Array(#"{"type":"subscriptions","list":"#.utf8) + mirror.subscriptions + [UInt8(ascii: "}")]
        }
    }

    /// Whether reading the cursor would give something: entries or a restart, and with `subscriptions` a changed
    /// subscription list too (a reader that never asks for lists must not be told of them, or it would ask again and
    /// again).
    public func hasNews(_ cursor: FleetCursor, subscriptions: Bool = true) -> Bool {
        state.withLock { state in
            guard let mirror = state.instances[cursor.instance]?.mirror else { return false }
            return mirror.epoch != cursor.epoch || cursor.next <= mirror.seq
                || (subscriptions && mirror.subscriptionsVersion != cursor.subscriptionsSeen)
        }
    }
}
