/// The requests waiting for their `reply`, by the id the client gave them: ids are 1, 2, 3… per connection.
///
/// ```swift
/// var book = ReplyBook<CheckedContinuation<InspectorReply, any Error>>()
/// let id = book.reserveID()                 // 1
/// book.wait(id, continuation)
/// book.take(1)?.resume(returning: reply)    // when {"type":"reply","id":1,…} arrives
/// ```
/// Generic over what waits, so that it is tested without continuations. Lives inside the client's lock.
struct ReplyBook<Waiter> {
    private var nextID: Int64 = 1
    private var waiting: [Int64: Waiter] = [:]

    /// The number of requests waiting.
    var count: Int { waiting.count }

    /// A new id, never given before on this connection.
    mutating func reserveID() -> Int64 {
        defer { nextID += 1 }
        return nextID
    }

    /// Records that `waiter` waits for the reply with `id`.
    mutating func wait(_ id: Int64, _ waiter: Waiter) {
        waiting[id] = waiter
    }

    /// The waiter for `id`, removed; nil when nobody waits for it (an unknown id, or one already answered).
    mutating func take(_ id: Int64) -> Waiter? {
        waiting.removeValue(forKey: id)
    }

    /// Every waiter, removed, in id order: for failing them all when the connection ends.
    mutating func takeAll() -> [Waiter] {
        defer { waiting = [:] }
        return waiting.sorted { $0.key < $1.key }.map(\.value)
    }
}
