import KeyscopeCore
import Synchronization

/// The benchmarks: a plain dictionary as the peer (set and get), then the store's reads, writes (alone, with
/// subscribers, with the observation hook), a 100-patch transaction, and key-path parsing for reference.
///
/// Every body does its setup first and times only its loop; results are consumed with ``blackhole(_:)``.
enum StoreBenchmarks {
    /// The name of the row every ratio is taken against.
    static let baseline = "dictionary set, existing key (peer)"

    static var all: [Benchmark] {
        [
            dictionarySetExisting, dictionarySetNew, dictionaryGet, storeGet, storeSetNew, storeSetExisting,
            storeSetWithSubscribers, storeSetWithObserver, transaction100, keyPathParse,
        ]
    }

    /// Two alternating values, so that every write is a real change.
    private static let values: [StoreValue] = [.integer(90), .integer(100)]

    /// The state the store benchmarks start from: a small cart and a few other top-level keys.
    private static var cartRoot: [String: StoreValue] {
        var root: [String: StoreValue] = [
            "cart": ["total": 90, "currency": "EUR", "items": [["title": "Tea", "price": 4, "qty": 1]]],
            "bulk": .emptyObject,
        ]
        for i in 0..<10 { root["other\(i)"] = .integer(Int64(i)) }
        return root
    }

    private static func newStore() -> KeyValueStore {
        KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: cartRoot)
    }

    private static let totalPath = try! StoreKeyPath(parsing: "cart.total")

    /// New-key benchmarks add at most this many keys to one store or dictionary, then start again from a fresh one
    /// (outside the timing), so that the figure does not depend on how many iterations a round has.
    static let batchSize = 1000

    /// Runs `iterations` iterations in batches of ``batchSize``, each on a fresh value from `setUp` (not timed),
    /// and returns the summed time of the batches.
    private static func batched<S>(
        _ iterations: Int, setUp: () -> S, _ body: (inout S, Range<Int>) -> Void
    ) -> Duration {
        let clock = ContinuousClock()
        var total = Duration.zero
        var start = 0
        while start < iterations {
            let range = start..<min(start + batchSize, iterations)
            var subject = setUp()
            total += clock.measure { body(&subject, range) }
            withExtendedLifetime(subject) {}
            start = range.upperBound
        }
        return total
    }

    // MARK: Peer

    static var dictionarySetExisting: Benchmark {
        Benchmark(baseline) { iterations in
            var dictionary: [String: StoreValue] = ["total": 90, "currency": "EUR", "count": 1]
            let key = "total"
            return ContinuousClock().measure {
                for i in 0..<iterations {
                    dictionary[key] = values[i & 1]
                    blackhole(dictionary)
                }
            }
        }
    }

    static var dictionarySetNew: Benchmark {
        Benchmark("dictionary set, new key (peer)") { iterations in
            let keys = KeyCache.shared.strings(batchSize)
            return batched(iterations, setUp: { [String: StoreValue]() }) { dictionary, range in
                for i in range {
                    dictionary[keys[i - range.lowerBound]] = values[i & 1]
                    blackhole(dictionary)
                }
            }
        }
    }

    static var dictionaryGet: Benchmark {
        Benchmark("dictionary get, existing key (peer)") { iterations in
            let dictionary: [String: StoreValue] = ["total": 90, "currency": "EUR", "count": 1]
            // Two keys in turn, so that the optimiser cannot hoist one lookup out of the loop.
            let keys = ["total", "count"]
            return ContinuousClock().measure {
                for i in 0..<iterations { blackhole(dictionary[keys[i & 1]]) }
            }
        }
    }

    // MARK: Store

    static var storeGet: Benchmark {
        Benchmark("store get cart.total") { iterations in
            let store = newStore()
            return ContinuousClock().measure {
                for _ in 0..<iterations { blackhole(store.get(totalPath)) }
            }
        }
    }

    static var storeSetNew: Benchmark {
        Benchmark("store set, new key") { iterations in
            let keys = KeyCache.shared.paths(batchSize)
            return batched(iterations, setUp: newStore) { store, range in
                for i in range { blackhole(store.set(keys[i - range.lowerBound], values[i & 1])) }
            }
        }
    }

    static var storeSetExisting: Benchmark {
        Benchmark("store set, existing key") { iterations in
            let store = newStore()
            return ContinuousClock().measure {
                for i in 0..<iterations { blackhole(store.set(totalPath, values[i & 1])) }
            }
        }
    }

    static var storeSetWithSubscribers: Benchmark {
        Benchmark("store set, 10 subscribers elsewhere") { iterations in
            let store = newStore()
            let received = Atomic<Int>(0)
            let subscriptions = (0..<10).map { i in
                store.publisher(for: StoreKeyPath(segments: [.key("other\(i)")]), label: "bench-\(i)")
                    .sink { _ in received.add(1, ordering: .relaxed) }
            }
            let elapsed = ContinuousClock().measure {
                for i in 0..<iterations { blackhole(store.set(totalPath, values[i & 1])) }
            }
            // Each subscriber heard only its first value: the writes are on paths none of them listens to.
            precondition(received.load(ordering: .relaxed) == 10, "subscribers on other keys heard cart writes")
            withExtendedLifetime(subscriptions) {}
            return elapsed
        }
    }

    static var storeSetWithObserver: Benchmark {
        Benchmark("store set, observation hook attached") { iterations in
            let registry = StoreRegistry()
            let changes = Atomic<Int>(0)
            let token = registry.observe { activity in
                if case .changed = activity { changes.add(1, ordering: .relaxed) }
            }
            let store = newStore()
            try registry.register(store)
            let elapsed = ContinuousClock().measure {
                for i in 0..<iterations { blackhole(store.set(totalPath, values[i & 1])) }
            }
            precondition(changes.load(ordering: .relaxed) == iterations, "the observer missed changes")
            registry.unregister(store.id)
            token.cancel()
            return elapsed
        }
    }

    static var transaction100: Benchmark {
        Benchmark(
            "transaction of 100 sets, per transaction",
            perPart: [(name: "transaction of 100 sets, per patch", parts: 100)]
        ) { iterations in
            let paths = (0..<100).map { StoreKeyPath(segments: [.key("bulk"), .key("k\($0)")]) }
            let store = newStore()
            return try ContinuousClock().measure {
                for i in 0..<iterations {
                    let value = StoreValue.integer(Int64(i))
                    try store.transaction { tx in
                        for path in paths { try tx.set(path, value) }
                    }
                }
            }
        }
    }

    static var keyPathParse: Benchmark {
        Benchmark("key-path parse items[3].title") { iterations in
            let texts = ["items[3].title", "items[3].title"]
            return try ContinuousClock().measure {
                for i in 0..<iterations { blackhole(try StoreKeyPath(parsing: texts[i & 1])) }
            }
        }
    }
}

/// Fresh keys `k0`, `k1`… (none of them in the starting state) made and parsed once, outside any timing, and reused
/// by every round.
final class KeyCache {
    /// Only the one benchmark thread (the main thread) uses it, which is what makes the unchecked access safe.
    nonisolated(unsafe) static let shared = KeyCache()

    private var keyStrings: [String] = []
    private var keyPaths: [StoreKeyPath] = []

    func strings(_ count: Int) -> ArraySlice<String> {
        while keyStrings.count < count { keyStrings.append("k\(keyStrings.count)") }
        return keyStrings[..<count]
    }

    func paths(_ count: Int) -> ArraySlice<StoreKeyPath> {
        let names = strings(count)
        while keyPaths.count < count { keyPaths.append(try! StoreKeyPath(parsing: names[keyPaths.count])) }
        return keyPaths[..<count]
    }
}
