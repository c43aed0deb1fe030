import Foundation
import KeyscopeCore
import Testing

/// Writes from many threads at once: serialised, nothing lost.
@Suite struct ConcurrencyTests {
    @Test func manyThreadsIncrementingInTransactionsLoseNoUpdate() {
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: ["count": 0])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 {
                _ = try? store.transaction { tx in
                    try tx.set("count", .integer((tx.get("count")?.integerValue ?? 0) + 1))
                }
            }
        }
        #expect(store.get("count") == 4000)
    }

    @Test func manyThreadsSettingDistinctKeysAllLand() {
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory))
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for i in 0..<300 {
                store.set(StoreKeyPath(segments: [.key("t\(thread)"), .key("k\(i)")]), .integer(Int64(i)))
            }
        }
        for thread in 0..<8 {
            #expect(store.get(StoreKeyPath(segments: [.key("t\(thread)")]))?.objectValue?.count == 300)
        }
    }

    @Test func readsDuringWritesSeeWholeStates() {
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: ["a": 0, "b": 0])
        let torn = ChangeCounter()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for i in 0..<500 {
                if worker == 0 {
                    _ = try? store.apply([.set("a", .integer(Int64(i))), .set("b", .integer(Int64(i)))])
                } else {
                    let snapshot = store.snapshot()
                    if snapshot["a"] != snapshot["b"] { torn.increment() }
                }
            }
        }
        #expect(torn.value == 0)
    }

    @Test func observersHearEveryChangeOnceInSeqOrderPerStore() throws {
        let registry = StoreRegistry()
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: ["n": 0])
        try registry.register(store)
        let box = ChangeBox()
        let token = registry.observe { if case .changed(let c) = $0 { box.append(c) } }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<250 {
                _ = try? store.transaction { tx in
                    try tx.set("n", .integer((tx.get("n")?.integerValue ?? 0) + 1))
                }
            }
        }
        token.cancel()
        let news = box.changes.compactMap { $0.patches.first?.newValue?.integerValue }
        #expect(news == Array(1...1000))
    }
}

final class ChangeCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
