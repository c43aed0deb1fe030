/// The bounded in-memory log: entries in `seq` order, the oldest dropped when a bound is passed.
///
/// A value type kept inside the hub's lock box. Appending is amortised O(1): evicted slots are cleared at once (so
/// their values are released) and the array is compacted only when more than half of it is cleared slots.
/// Readers never hold entries in place: they copy references out, so eviction just moves the tail.
struct HubLog {
    /// Slots `head...` hold the live entries; earlier slots are cleared.
    private var slots: [HubLogEntry?] = []
    private var head = 0
    /// The sum of the live entries' ``HubLogEntry/estimatedBytes``.
    private(set) var bytes = 0
    /// The seq the next entry gets.
    private(set) var nextSeq = 1
    /// How many entries were ever evicted (for tests and metrics).
    private(set) var evicted = 0

    /// The oldest seq still in the log (`nextSeq` when the log is empty).
    var firstSeq: Int { nextSeq - count }
    /// The newest seq handed out (0 before the first entry).
    var lastSeq: Int { nextSeq - 1 }
    var count: Int { slots.count - head }

    /// Takes the next seq for `make`'s entry, appends it, then evicts the oldest entries until both bounds hold
    /// again (the newest entry always stays, however large).
    mutating func append(_ make: (Int) -> HubLogEntry, options: HubOptions) -> HubLogEntry {
        let entry = make(nextSeq)
        nextSeq += 1
        slots.append(entry)
        bytes += entry.estimatedBytes
        while count > 1, count > options.maxEntries || bytes > options.maxBytes {
            bytes -= slots[head]!.estimatedBytes
            slots[head] = nil
            head += 1
            evicted += 1
        }
        if head > 1024, head > slots.count / 2 {
            slots.removeFirst(head)
            head = 0
        }
        return entry
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
