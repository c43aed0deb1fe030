import Foundation
import KeyscopeCore
import KeyscopeRedis
import KeyscopeTesting
import PropertyBased
import Testing

/// However the writes of several instances interleave (same keys included), once they stop every instance holds
/// the same state, and a fresh instance loads exactly it.
@Suite struct ConvergencePropertyTests {
    @Test func randomInterleavingsConverge() async throws {
        let server = try RedisTestServer()
        await propertyCheck(count: 8, input: Gen.int(in: 0...1_000_000)) { seed in
            let fleet = "p\(seed)"
            let instances = try (0..<3).map { try Instance(server.url, fleet: fleet, id: "i\($0)") }
            DispatchQueue.concurrentPerform(iterations: instances.count) { index in
                var random = SplitMix64(seed: UInt64(seed * 10 + index))
                let store = instances[index].store
                for step in 0..<80 {
                    Self.randomWrite(store, &random, step: step, instance: index)
                    if random.next(in: 0...9) == 0 { Thread.sleep(forTimeInterval: 0.002) }
                }
            }
            for instance in instances { instance.store.flush() }
            eventually("all instances equal") {
                let first = instances[0].store.snapshot()
                return instances.allSatisfy { $0.store.snapshot() == first && $0.store.backendStatus?.pending == 0 }
            }
            let fresh = try Instance(server.url, fleet: fleet, id: "fresh")
            #expect(fresh.store.snapshot() == instances[0].store.snapshot())
        }
    }

    /// A set (of an object, so nested writes often fit), a nested set, a merge, a removal, or (rarely) a write of
    /// the whole root, on a few shared keys. Writes that do not fit the current value are refused, as anywhere.
    private static func randomWrite(_ store: KeyValueStore, _ random: inout SplitMix64, step: Int, instance: Int) {
        let key = "k\(random.next(in: 0...4))"
        let value = StoreValue.string("\(instance)-\(step)")
        let operation: StoreOperation
        switch random.next(in: 0...19) {
        case 0...4: operation = .set(StoreKeyPath(segments: [.key(key)]), value)
        case 5...8: operation = .set(StoreKeyPath(segments: [.key(key)]), ["at": value])
        case 9...12: operation = .set(StoreKeyPath(segments: [.key(key), .key("sub")]), value)
        case 13...15: operation = .merge(StoreKeyPath(segments: [.key(key)]), ["m\(instance)": value])
        case 16...18: operation = .remove(StoreKeyPath(segments: [.key(key)]))
        default: operation = .set(.root, ["k0": value])
        }
        _ = try? store.apply([operation], transactionID: nil)
    }
}
