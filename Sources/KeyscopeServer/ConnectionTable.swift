/// The server's open connections, what each is doing, and who makes room when there are too many
/// (``ServerOptions/maxConnections``).
///
/// A connection is *waiting* from its accept until the server starts its answer: it has not finished its request
/// line, headers or body. Waiting costs the server nothing but a descriptor and is what a client that connects and
/// sends nothing looks like, so when a new connection takes the count past the cap, the oldest waiting connection
/// makes room (it is answered 503 and closed). Only when none is waiting is the new connection itself refused:
/// connections being answered and WebSocket clients (which had the token) are never pushed out by newcomers.
///
/// ```swift
/// var table = ConnectionTable<Int>(capacity: 2)
/// table.admit(1)                      // .admitted
/// table.admit(2)                      // .admitted
/// table.advance(2, to: .webSocket)
/// table.admit(3)                      // .evict(1): 1 was waiting longest
/// ```
/// Service thread only (``ServerCore`` keys it by `wsi`).
struct ConnectionTable<Key: Hashable> {
    enum Stage: Equatable {
        /// Accepted; its request (line, headers or body) is not complete.
        case waiting
        /// Its HTTP answer is being sent.
        case answering
        /// An upgraded WebSocket client.
        case webSocket
    }

    enum Admission: Equatable {
        /// Within the cap.
        case admitted
        /// Admitted; this older waiting connection must be answered 503 and closed to make room.
        case evict(Key)
        /// Over the cap with nobody waiting: the new connection itself must be answered 503 and closed.
        case refuse
    }

    private struct Entry {
        let serial: UInt64
        var stage: Stage
    }

    /// The most connections open at once; at least 1.
    let capacity: Int
    private var entries: [Key: Entry] = [:]
    /// Connections told to close (evicted or refused) that have not gone yet: they no longer count.
    private var closing: Set<Key> = []
    private var nextSerial: UInt64 = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Connections open and not on their way out.
    var liveCount: Int { entries.count - closing.count }

    /// Every connection the table knows, closing ones included.
    var openCount: Int { entries.count }

    /// The stage of a connection; `nil` when the table does not know it.
    func stage(of key: Key) -> Stage? { entries[key]?.stage }

    /// Whether the connection was told to close.
    func isClosing(_ key: Key) -> Bool { closing.contains(key) }

    /// A connection was accepted: whether it may stay, and who makes room.
    mutating func admit(_ key: Key) -> Admission {
        entries[key] = Entry(serial: nextSerial, stage: .waiting)
        nextSerial += 1
        guard liveCount > capacity else { return .admitted }
        if let oldest = oldestWaiting(besides: key) {
            closing.insert(oldest)
            return .evict(oldest)
        }
        closing.insert(key)
        return .refuse
    }

    /// The connection moved on (its request is complete, it upgraded).
    mutating func advance(_ key: Key, to stage: Stage) {
        entries[key]?.stage = stage
    }

    /// The connection is gone.
    mutating func remove(_ key: Key) {
        entries[key] = nil
        closing.remove(key)
    }

    /// The waiting connection accepted first, other than `key`; a linear scan, made only when the cap is passed.
    private func oldestWaiting(besides key: Key) -> Key? {
        var oldest: (key: Key, serial: UInt64)?
        for (candidate, entry) in entries
        where entry.stage == .waiting && candidate != key && !closing.contains(candidate) {
            if oldest == nil || entry.serial < oldest!.serial { oldest = (candidate, entry.serial) }
        }
        return oldest?.key
    }
}
