import KeyscopeCodec
import KeyscopeCore

/// The bounded in-memory log: entries in `seq` order, the oldest dropped when a bound is passed.
///
/// A value type kept inside the hub's lock box. Appending only stores the entry (a spare one refilled, when there is
/// one): the writer's thread pays nothing more. Bounds are enforced by
/// ``settle(estimates:options:keepAfter:)``, which a reader (or a background queue, once enough is pending)
/// calls with each new entry's estimated size, kept in its slot; only settled entries are evicted. Evicted
/// slots are cleared at once and the array is compacted only when more than half of it is cleared slots. Readers copy
/// references out, so eviction just moves the tail.
///
/// Evicted entries that nobody else holds come back as spares (``keepSpares(_:)``), which later appends refill
/// instead of allocating: see ``HubLogEntry``. A spare keeps its old event (and values) until it is refilled, so
/// spares are bounded too: ``spareLimit`` entries and ``spareByteLimit`` estimated bytes beyond the log's bounds.
struct HubLog {
    /// A place in the log: its entry (`nil` once evicted) and the entry's estimated size once settled (0 before).
    /// The size is kept here as well as in the entry so that eviction, under the hub's lock, reads it from this
    /// array: reading it from each old entry cost a cache miss per evicted entry, and the writer waited for them.
    struct Slot {
        var entry: HubLogEntry?
        var estimatedBytes = 0
    }

    /// An entry that settling evicted, with its estimated size.
    struct Evicted {
        var entry: HubLogEntry
        let estimatedBytes: Int
    }

    /// Slots `head...` hold the live entries; earlier slots are cleared.
    private var slots: [Slot] = []
    private var head = 0
    /// The sum of the settled live entries' estimated sizes.
    private(set) var bytes = 0
    /// The seq the next entry gets.
    private(set) var nextSeq = 1
    /// The newest seq whose entry was settled (0 before the first).
    private(set) var settledSeq = 0
    /// How many entries were ever evicted (for tests and metrics).
    private(set) var evicted = 0
    /// Evicted entries that nobody else holds, for appends to refill, and the sum of their estimated sizes.
    private var spares: [Evicted] = []
    private(set) var spareBytes = 0

    /// The most spare entries kept, and the most estimated bytes they hold: evicted entries beyond them are freed.
    static let spareLimit = 4096
    static let spareByteLimit = 1 << 20

    /// The oldest seq still in the log (`nextSeq` when the log is empty).
    var firstSeq: Int { nextSeq - count }
    /// The newest seq handed out (0 before the first entry).
    var lastSeq: Int { nextSeq - 1 }
    var count: Int { slots.count - head }
    /// Entries appended but not settled yet.
    var unsettled: Int { lastSeq - settledSeq }

    /// Appends an entry for `event` with the next seq, refilling a spare one when there is one: returns it with the
    /// event the spare held, for the caller to release outside its lock. Bounds are not checked here (see
    /// ``settle``).
    mutating func append(time: LogTime, storeID: StoreID, event: HubLogEvent) -> (
        entry: HubLogEntry, replaced: HubLogEvent?
    ) {
        let appended: (entry: HubLogEntry, replaced: HubLogEvent?)
        if let spare = spares.popLast() {
            spareBytes -= spare.estimatedBytes
            appended = (spare.entry, spare.entry.refill(seq: nextSeq, time: time, storeID: storeID, event: event))
        } else {
            appended = (HubLogEntry(seq: nextSeq, time: time, storeID: storeID, event: event), nil)
        }
        nextSeq += 1
        slots.append(Slot(entry: appended.entry))
        return appended
    }

    /// Keeps evicted entries that nobody else holds (their lines dropped) as spares, within ``spareLimit`` and
    /// ``spareByteLimit``; returns the rest, for the caller to release outside its lock.
    mutating func keepSpares(_ entries: [Evicted]) -> [Evicted] {
        var freed: [Evicted] = []
        for entry in entries {
            if spares.count < Self.spareLimit, spareBytes + entry.estimatedBytes <= Self.spareByteLimit {
                spares.append(entry)
                spareBytes += entry.estimatedBytes
            } else {
                freed.append(entry)
            }
        }
        return freed
    }

    /// How many spare entries wait to be refilled.
    var spareCount: Int { spares.count }

    /// Counts the entries after ``settledSeq`` as settled, `estimates` holding their estimated sizes in order (one
    /// per entry, the newest settled being the last), then evicts the oldest entries until both bounds hold again
    /// (the newest entry always stays, however large, and so does every entry after `keepAfter`, the seq a snapshot
    /// being made starts from). Returns the evicted entries so that the caller can release them outside its lock.
    mutating func settle(estimates: [Int], options: HubOptions, keepAfter: Int?) -> [Evicted] {
        precondition(estimates.count <= unsettled, "settle must follow the log in order")
        var slot = head + (settledSeq + 1 - firstSeq)
        for size in estimates {
            slots[slot].estimatedBytes = size
            bytes += size
            slot += 1
        }
        settledSeq += estimates.count
        var retired: [Evicted] = []
        // Only settled entries may go, and none that a snapshot being made will read.
        let lastEvictable = min(settledSeq, keepAfter ?? .max)
        while count > 1, firstSeq <= lastEvictable, count > options.maxEntries || bytes > options.maxBytes {
            let size = slots[head].estimatedBytes
            retired.append(Evicted(entry: slots[head].entry.take()!, estimatedBytes: size))
            bytes -= size
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
        return slots[head + (seq - firstSeq)].entry
    }

    /// Up to `limit` entries from `seq` on, not retained (`seq` must not be older than ``firstSeq``): for a caller
    /// that holds the hub's settling lock, under which nothing is evicted, and that retains what it keeps before it
    /// lets go of that lock. The hub's lock is then held only to copy pointers: retaining entries that the writer
    /// just made means a cache miss each.
    func unretainedEntries(from seq: Int, limit: Int) -> [Unmanaged<HubLogEntry>] {
        slots[slotRange(from: seq, limit: limit)].map { Unmanaged.passUnretained($0.entry.unsafelyUnwrapped) }
    }

    /// Up to `limit` entries from `seq` on (`seq` must not be older than ``firstSeq``).
    func entries(from seq: Int, limit: Int) -> [HubLogEntry] {
        slots[slotRange(from: seq, limit: limit)].map { $0.entry! }
    }

    /// The slots of up to `limit` entries from `seq` on.
    private func slotRange(from seq: Int, limit: Int) -> Range<Int> {
        precondition(seq >= firstSeq, "entries older than the log's tail were evicted")
        guard seq < nextSeq, limit > 0 else { return head..<head }
        let start = head + (seq - firstSeq)
        return start..<(start + min(limit, nextSeq - seq))
    }
}
