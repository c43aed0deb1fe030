import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Gives the memory a busy log frees back to the system, at most once per interval.
///
/// A hub that evicts thousands of entries a second frees their events and lines on several threads, in between
/// entries that live on, and frames and copies of the server's. glibc keeps what is freed inside its heaps (one per
/// arena, up to eight per core) and returns a page to the system only from a heap's top: the freed holes stay in
/// the process's RSS. In `make load`'s soak (50 dashboards, 10,000 changes/s) the memory in use stayed at 113 to
/// 131 MiB while the free memory inside the heaps grew from 24 to 57 MiB in under 3 minutes, and RSS with it.
/// `malloc_trim(0)` hands those pages back (it keeps them mapped: a later allocation faults them in again).
///
/// ```swift
/// let giving = FreedMemoryReturn(interval: .seconds(5))
/// if giving.isDue() { queue.async { FreedMemoryReturn.trim() } }   // after evicting
/// ```
/// Only glibc has `malloc_trim` (looked up at run time: Swift's Glibc module leaves `malloc.h` out); elsewhere
/// ``trim()`` does nothing. Thread-safe.
final class FreedMemoryReturn: Sendable {
    /// The least time between two trims.
    let interval: Duration
    private let last: Mutex<ContinuousClock.Instant?>

    init(interval: Duration, now: ContinuousClock.Instant = .now) {
        self.interval = interval
        // The first trim comes one interval after the hub was made, not at its first eviction.
        self.last = Mutex(now)
    }

    /// Whether a trim is due at `now` (an interval since the last one); when it is, counts it as made at `now`, so
    /// that only one caller is told.
    func isDue(now: ContinuousClock.Instant = .now) -> Bool {
        last.withLock { last in
            if let last, now - last < interval { return false }
            last = now
            return true
        }
    }

    /// Returns the free pages of every heap of the process to the system. It walks the free memory of each arena
    /// under that arena's lock (a few milliseconds for tens of MiB), so call it on a background queue.
    static func trim() {
        _ = mallocTrim?(0)
    }

    /// glibc's `int malloc_trim(size_t pad)`, when the process has it.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// Whether this process can give freed memory back (glibc).
    static var isAvailable: Bool { mallocTrim != nil }
}
