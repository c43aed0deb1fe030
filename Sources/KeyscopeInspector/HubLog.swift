/// The bounded in-memory log: entries in `seq` order, the oldest dropped when a bound is passed.
///
/// A value type kept inside the hub's lock box. Appending only stores the entry: the writer's thread pays nothing
/// more. Bounds are enforced by ``settle(through:addedBytes:options:keepAfter:)``, which a reader (or the writer,
/// once enough is pending) calls once it has recorded each entry's estimated size in the entry; only settled entries
/// are evicted. Evicted slots are cleared at once and the array is compacted only when more than half of it is
/// cleared slots. Readers copy references out, so eviction just moves the tail.
struct HubLog {
    /// Slots `head...` hold the live entries; earlier slots are cleared.
    private var slots: [HubLogEntry?] = []
    private var head = 0
    /// The sum of the settled live entries' estimated sizes.
    private(set) var bytes = 0
    /// The seq the next entry gets.
    private(set) var nextSeq = 1
    /// The newest seq whose entry was settled (0 before the first).
    private(set) var settledSeq = 0
    /// How many entries were ever evicted (for tests and metrics).
    private(set) var evicted = 0

    /// The oldest seq still in the log (`nextSeq` when the log is empty).
    var firstSeq: Int { nextSeq - count }
    /// The newest seq handed out (0 before the first entry).
    var lastSeq: Int { nextSeq - 1 }
    var count: Int { slots.count - head }
    /// Entries appended but not settled yet.
    var unsettled: Int { lastSeq - settledSeq }

    /// Takes the next seq for `make`'s entry and appends it. Bounds are not checked here (see ``settle``).
    mutating func append(_ make: (Int) -> HubLogEntry) -> HubLogEntry {
        let entry = make(nextSeq)
        nextSeq += 1
        slots.append(entry)
        return entry
    }

    /// Counts the entries after ``settledSeq`` up to `seq` as settled, `addedBytes` being the sum of their estimates
    /// (each already recorded in its entry, where eviction reads it back), then evicts the oldest entries until both
    /// bounds hold again (the newest entry always stays, however large, and so does every entry after `keepAfter`,
    /// the seq a snapshot being made starts from). Returns the evicted entries so that the caller can release them
    /// outside its lock.
    mutating func settle(through seq: Int, addedBytes: Int, options: HubOptions, keepAfter: Int?) -> [HubLogEntry] {
        precondition(seq >= settledSeq && seq <= lastSeq, "settle must follow the log in order")
        bytes += addedBytes
        settledSeq = seq
        var retired: [HubLogEntry] = []
        // Only settled entries may go, and none that a snapshot being made will read.
        let lastEvictable = min(settledSeq, keepAfter ?? .max)
        while count > 1, firstSeq <= lastEvictable, count > options.maxEntries || bytes > options.maxBytes {
            let entry = slots[head]!
            bytes -= entry.estimatedBytes
            retired.append(entry)
            slots[head] = nil
            head += 1
            evicted += 1
        }
        if head > 1024, head > slots.count / 2 {
            slots.removeFirst(head)
            head = 0
        }
        return retired
    }

    /// The entry with `seq`, if it is still in the log.
    func entry(seq: Int) -> HubLogEntry? {
        guard seq >= firstSeq, seq < nextSeq else { return nil }
        return slots[head + (seq - firstSeq)]
    }

    /// Up to `limit` entries from `seq` on (`seq` must not be older than ``firstSeq``).
    func entries(from seq: Int, limit: Int) -> [HubLogEntry] {
        precondition(seq >= firstSeq, "entries older than the log's tail were evicted")
        guard seq < nextSeq, limit > 0 else { return [] }
        let start = head + (seq - firstSeq)
        let end = start + min(limit, nextSeq - seq)
        return slots[start..<end].map { $0! }
    }
}
