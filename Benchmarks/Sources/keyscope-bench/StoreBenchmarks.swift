import KeyscopeCore
import Synchronization

/// The benchmarks: the seed store of issue 27 as the peer (SeedStore: set, new key, items[i].title, get), a plain
/// dictionary as the floor, then the store's reads and writes, each both as users write them (the path a literal or
/// a string, parsed on every call) and with a pre-parsed path, writes with subscribers and with the observation hook,
/// a 100-patch transaction, and key-path parsing.
///
/// Every body does its setup first and times only its loop; results are consumed with ``blackhole(_:)``.
enum StoreBenchmarks {
    /// The name of the row every ratio of the part's own table is taken against.
    static let baseline = "seed store set cart.total (peer)"

    static var all: [Benchmark] {
        [
            seedSetExisting, seedSetNew, seedSetTitle, seedGet, dictionarySetExisting, dictionarySetNew,
            dictionaryGet, storeSetLiteral, storeSetExisting, storeSetNewParsed, storeSetNew, storeSetTitleParsed,
            storeSetTitle, storeGetLiteral, storeGet, storeSetWithSubscribers, storeSetWithObserver, transaction100,
            keyPathParse, keyPathParseDifferent,
        ]
    }

    /// Two alternating values, so that every write is a real change.
    static let values: [StoreValue] = [.integer(90), .integer(100)]

    /// Two titles of 60 characters (heap strings, as in the push workload); each pass over the items takes the
    /// other one, so that every write is a real change.
    static let titles: [StoreValue] = [
        .string(String(repeating: "Tea, green, loose leaf, 100 g. ", count: 2)),
        .string(String(repeating: "Coffee, whole beans, 250 g.... ", count: 2)),
    ]

    /// How many items the state has: the title rows write `items[i].title` for i in 0..<itemCount in turn.
    static let itemCount = 100

    /// The state the store benchmarks start from: a small cart, 100 items and a few other top-level keys.
    static var cartRoot: [String: StoreValue] {
        var root: [String: StoreValue] = [
            "cart": ["total": 90, "currency": "EUR", "items": [["title": "Tea", "price": 4, "qty": 1]]],
            "bulk": .emptyObject,
            "items": .array((0..<itemCount).map { _ in ["title": titles[0], "price": 4] }),
        ]
        for i in 0..<10 { root["other\(i)"] = .integer(Int64(i)) }
        return root
    }

    static func newStore() -> KeyValueStore {
        KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: cartRoot)
    }

    private static let totalPath = try! StoreKeyPath(parsing: "cart.total")
    /// `items[0].title`… as text, the flat keys of the seed store and the strings the store rows parse.
    static let titleKeys = (0..<itemCount).map { "items[\($0)].title" }
    private static let titlePaths = titleKeys.map { try! StoreKeyPath(parsing: $0) }

    /// New-key benchmarks add at most this many keys to one store or dictionary, then start again from a fresh one
    /// (outside the timing), so that the figure does not depend on how many iterations a round has.
    static let batchSize = 1000

    /// Runs `iterations` iterations in batches of ``batchSize``, each on a fresh value from `setUp` (not timed),
    /// and returns the summed time of the batches.
    static func batched<S>(
        _ iterations: Int, setUp: () -> S, _ body: (inout S, Range<Int>) throws -> Void
    ) rethrows -> Duration {
        let clock = ContinuousClock()
        var total = Duration.zero
        var start = 0
        while start < iterations {
            let range = start..<min(start + batchSize, iterations)
            var subject = setUp()
            total += try clock.measure { try body(&subject, range) }
            withExtendedLifetime(subject) {}
            start = range.upperBound
        }
        return total
    }

    // MARK: Writes

    static var storeSetLiteral: Benchmark {
        Benchmark("store set cart.total, literal") { iterations in
            let store = newStore()
            return ContinuousClock().measure {
                // As users write it: the literal is parsed on every call.
                for i in 0..<iterations { blackhole(store.set("cart.total", values[i & 1])) }
            }
        }
    }

    static var storeSetExisting: Benchmark {
        Benchmark("store set cart.total, pre-parsed") { iterations in
            let store = newStore()
            return ContinuousClock().measure {
                for i in 0..<iterations { blackhole(store.set(totalPath, values[i & 1])) }
            }
        }
    }

    static var storeSetNewParsed: Benchmark {
        Benchmark("store set, new key, parsed") { iterations in
            let keys = KeyCache.shared.strings(batchSize)
            return try batched(iterations, setUp: newStore) { store, range in
                for i in range {
                    blackhole(store.set(try StoreKeyPath(parsing: keys[i - range.lowerBound]), values[i & 1]))
                }
            }
        }
    }

    static var storeSetNew: Benchmark {
        Benchmark("store set, new key, pre-parsed") { iterations in
            let keys = KeyCache.shared.paths(batchSize)
            return batched(iterations, setUp: newStore) { store, range in
                for i in range { blackhole(store.set(keys[i - range.lowerBound], values[i & 1])) }
            }
        }
    }

    static var storeSetTitleParsed: Benchmark {
        Benchmark("store set items[i].title, parsed") { iterations in
            let store = newStore()
            let keys = titleKeys
            return try ContinuousClock().measure {
                for i in 0..<iterations {
                    let path = try StoreKeyPath(parsing: keys[i % itemCount])
                    blackhole(store.set(path, titles[(i / itemCount) & 1]))
                }
            }
        }
    }

    static var storeSetTitle: Benchmark {
        Benchmark("store set items[i].title, pre-parsed") { iterations in
            let store = newStore()
            let paths = titlePaths
            return ContinuousClock().measure {
                for i in 0..<iterations { blackhole(store.set(paths[i % itemCount], titles[(i / itemCount) & 1])) }
            }
        }
    }

    // MARK: Reads

    static var storeGetLiteral: Benchmark {
        Benchmark("store get cart.total, literal") { iterations in
            let store = newStore()
            return ContinuousClock().measure {
                for _ in 0..<iterations { blackhole(store.get("cart.total")) }
            }
        }
    }

    static var storeGet: Benchmark {
        Benchmark("store get cart.total, pre-parsed") { iterations in
            let store = newStore()
            return ContinuousClock().measure {
                for _ in 0..<iterations { blackhole(store.get(totalPath)) }
            }
        }
    }

    // MARK: Writes that someone hears

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

    // MARK: Parsing

    static var keyPathParse: Benchmark {
        Benchmark("key-path parse items[3].title, repeated") { iterations in
            let texts = ["items[3].title", "items[3].title"]
            return try ContinuousClock().measure {
                for i in 0..<iterations { blackhole(try StoreKeyPath(parsing: texts[i & 1])) }
            }
        }
    }

    static var keyPathParseDifferent: Benchmark {
        Benchmark("key-path parse, 1,000 different paths") { iterations in
            // More paths than a thread's cache of parsed paths holds, taken in turn: every parse is a miss.
            let texts = (0..<1000).map { "items[\($0)].title" }
            return try ContinuousClock().measure {
                for i in 0..<iterations { blackhole(try StoreKeyPath(parsing: texts[i % 1000])) }
            }
        }
    }
}
