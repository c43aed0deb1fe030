import KeyscopeCore

/// The peers: the seed store (the store a developer writes by hand, ``SeedStore``), the one the store's figures
/// are compared with, and a bare dictionary, the floor any store is measured from (no lock, no subscribers).
extension StoreBenchmarks {
    /// The seed store's keys for `cartRoot`: each leaf under its flat key path, `cart.total`, `items[3].title`…
    static var seedRoot: [String: StoreValue] {
        var flat: [String: StoreValue] = [:]
        func add(_ value: StoreValue, at path: StoreKeyPath) {
            switch value {
            case .object(let members) where !members.isEmpty:
                for (key, member) in members { add(member, at: path.appending(key: key)) }
            case .array(let elements) where !elements.isEmpty:
                for (index, element) in elements.enumerated() { add(element, at: path.appending(index: index)) }
            default:
                flat[path.description] = value
            }
        }
        add(.object(cartRoot), at: .root)
        return flat
    }

    static var seedSetExisting: Benchmark {
        Benchmark(baseline) { iterations in
            let seed = SeedStore(seedRoot)
            return ContinuousClock().measure {
                for i in 0..<iterations { seed.set("cart.total", values[i & 1]) }
            }
        }
    }

    static var seedSetNew: Benchmark {
        Benchmark("seed store set, new key (peer)") { iterations in
            let keys = KeyCache.shared.strings(batchSize)
            let root = seedRoot
            return batched(iterations, setUp: { SeedStore(root) }) { seed, range in
                for i in range { seed.set(keys[i - range.lowerBound], values[i & 1]) }
            }
        }
    }

    static var seedSetTitle: Benchmark {
        Benchmark("seed store set items[i].title (peer)") { iterations in
            let seed = SeedStore(seedRoot)
            let keys = titleKeys
            return ContinuousClock().measure {
                for i in 0..<iterations { seed.set(keys[i % itemCount], titles[(i / itemCount) & 1]) }
            }
        }
    }

    static var seedGet: Benchmark {
        Benchmark("seed store get cart.total (peer)") { iterations in
            let seed = SeedStore(seedRoot)
            return ContinuousClock().measure {
                for _ in 0..<iterations { blackhole(seed.get("cart.total")) }
            }
        }
    }

    static var dictionarySetExisting: Benchmark {
        Benchmark("dictionary set, existing key (floor)") { iterations in
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
        Benchmark("dictionary set, new key (floor)") { iterations in
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
        Benchmark("dictionary get, existing key (floor)") { iterations in
            let dictionary: [String: StoreValue] = ["total": 90, "currency": "EUR", "count": 1]
            // Two keys in turn, so that the optimiser cannot hoist one lookup out of the loop.
            let keys = ["total", "count"]
            return ContinuousClock().measure {
                for i in 0..<iterations { blackhole(dictionary[keys[i & 1]]) }
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
