import Foundation
import KeyscopeCore

/// The inspector benchmarks' store and writes: an `app/memory` store with 100 items, whose `items[i].title` the
/// producer sets, in turn, to 60-character strings (each write a real change: a `set` patch with `old` and `new`).
///
/// ```swift
/// let workload = PushWorkload()
/// let store = workload.makeStore()
/// let elapsed = workload.produce(100_000, into: store)   // as fast as it can, from the calling thread
/// ```
struct PushWorkload: Sendable {
    static let itemCount = 100
    static let titleLength = 60
    static let storeID = StoreID(scope: .app, storage: .memory)

    let paths: [StoreKeyPath]
    /// Two titles the items alternate between, so that the producer allocates nothing per write.
    let titles: [StoreValue]

    init() {
        paths = (0..<Self.itemCount).map { try! StoreKeyPath(parsing: "items[\($0)].title") }
        titles = [
            "Darjeeling first flush, 100 g caddy, Castleton estate, lot ",
            "Assam second flush, 250 g tin, Halmari est., lot ",
        ]
        .enumerated().map { index, stem in
            let suffix = String(repeating: "0", count: Self.titleLength - stem.utf8.count - 1) + "\(index + 1)"
            return StoreValue.string(stem + suffix)
        }
        precondition(titles.allSatisfy { $0.stringValue?.utf8.count == Self.titleLength })
    }

    /// A store with the 100 items, every title at the second title (the first write sets the first), and a cart
    /// whose total is 100.
    func makeStore() -> KeyValueStore {
        let items = (0..<Self.itemCount).map { index -> StoreValue in
            ["title": titles[1], "price": .integer(Int64(3 + index % 7)), "qty": 1]
        }
        return KeyValueStore(
            id: Self.storeID, root: ["items": .array(items), "currency": "EUR", "cart": ["total": 100]])
    }

    /// Writes `count` changes as fast as it can on the calling thread; the time it took. With one patch per change
    /// each is a `store.set`; with more, each is a transaction of that many `set`s to consecutive items (one log
    /// entry with that many patches, none folded).
    func produce(_ count: Int, patchesPerChange: Int = 1, into store: KeyValueStore) -> Duration {
        let paths = self.paths
        let titles = self.titles
        return ContinuousClock().measure {
            var item = 0
            var pass = 0
            func next() -> (StoreKeyPath, StoreValue) {
                defer {
                    item += 1
                    if item == Self.itemCount {
                        item = 0
                        pass += 1
                    }
                }
                return (paths[item], titles[pass & 1])
            }
            if patchesPerChange == 1 {
                for _ in 0..<count {
                    let (path, title) = next()
                    precondition(store.set(path, title), "the store refused a benchmark write")
                }
                return
            }
            precondition(patchesPerChange <= Self.itemCount, "a transaction would write one item twice")
            var operations: [StoreOperation] = []
            operations.reserveCapacity(patchesPerChange)
            for _ in 0..<count {
                operations.removeAll(keepingCapacity: true)
                for _ in 0..<patchesPerChange {
                    let (path, title) = next()
                    operations.append(.set(path, title))
                }
                let change = try? store.apply(operations)
                precondition(change?.patches.count == patchesPerChange, "the store refused a benchmark transaction")
            }
        }
    }

    /// Writes `count` changes at `rate` a second, each value starting with its send time (monotonic ns, 20 digits)
    /// and padded to 60 characters; sleeps until each write is due (`clock_nanosleep`, absolute). Returns how long
    /// it took.
    func producePaced(rate: Int, count: Int, into store: KeyValueStore) -> Duration {
        let interval = 1_000_000_000 / UInt64(rate)
        let padding = String(repeating: "x", count: Self.titleLength - 21)
        let start = monotonicNanoseconds()
        for index in 0..<count {
            let due = start + UInt64(index) * interval
            var deadline = timespec(tv_sec: Int(due / 1_000_000_000), tv_nsec: Int(due % 1_000_000_000))
            if monotonicNanoseconds() < due { _ = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) }
            let sent = monotonicNanoseconds()
            let digits = String(sent)
            let stamp = String(repeating: "0", count: 20 - digits.utf8.count) + digits + " " + padding
            precondition(store.set(paths[index % Self.itemCount], .string(stamp)), "the store refused a write")
        }
        return .nanoseconds(Int64(monotonicNanoseconds() - start))
    }
}
