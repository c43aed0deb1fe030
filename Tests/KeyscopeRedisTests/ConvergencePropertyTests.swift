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

    /// The same while connections to Redis are dropped now and then (`CLIENT KILL`): every one, or the readers' only,
    /// so that readers join the document again while their pushers have pushes on the way and other instances write
    /// the same keys.
    @Test func randomInterleavingsWithDroppedConnectionsConverge() async throws {
        let server = try RedisTestServer()
        await propertyCheck(count: 6, input: Gen.int(in: 0...1_000_000)) { seed in
            let fleet = "d\(seed)"
            let instances = try (0..<3).map { try Instance(server.url, fleet: fleet, id: "i\($0)") }
            DispatchQueue.concurrentPerform(iterations: instances.count + 1) { index in
                var random = SplitMix64(seed: UInt64(seed * 10 + index))
                guard index < instances.count else {
                    // A connection of its own, on this thread (a connection belongs to one).
                    let killer = try? inspect(server)
                    for _ in 0..<8 {
                        Thread.sleep(forTimeInterval: Double(random.next(in: 1...20)) / 1000)
                        if random.next(in: 0...2) == 0 {
                            _ = try? killer?.call(["CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"])
                        } else {
                            // The readers only: they join again while the pushers go on (pushes on their way).
                            for id in Self.readerClientIDs(killer) {
                                _ = try? killer?.call(["CLIENT", "KILL", "ID", id])
                            }
                        }
                    }
                    return
                }
                let store = instances[index].store
                for step in 0..<150 {
                    Self.randomWrite(store, &random, step: step, instance: index)
                    if random.next(in: 0...4) == 0 { Thread.sleep(forTimeInterval: 0.001) }
                }
            }
            eventually("all instances connected, nothing pending, equal") {
                let first = instances[0].store.snapshot()
                return instances.allSatisfy {
                    $0.store.snapshot() == first && $0.store.backendStatus?.pending == 0
                        && $0.store.backendStatus?.state == .connected
                }
            }
            let fresh = try Instance(server.url, fleet: fleet, id: "fresh")
            #expect(fresh.store.snapshot() == instances[0].store.snapshot())
        }
    }

    /// The ids of the connections whose last command was `XREAD` (the stores' readers), from `CLIENT LIST`.
    private static func readerClientIDs(_ connection: RedisConnection?) -> [String] {
        let list = (try? connection?.call(["CLIENT", "LIST"]).string) ?? ""
        return list.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.contains("cmd=xread"), let id = fields.first(where: { $0.hasPrefix("id=") }) else {
                return nil
            }
            return String(id.dropFirst(3))
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
