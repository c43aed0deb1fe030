import Foundation
import KeyscopeCore
import KeyscopeTesting
import Synchronization
import Testing

/// Transactions: one change with a UUID, folding per docs/store.md, all or nothing.
@Suite struct TransactionTests {
    func store(_ root: [String: StoreValue] = [:]) -> KeyValueStore {
        KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: root)
    }

    @Test func transactionIsOneChangeWithATransactionID() throws {
        let store = store()
        let box = ChangeBox()
        let registry = StoreRegistry()
        try registry.register(store)
        let token = registry.observe { if case .changed(let c) = $0 { box.append(c) } }
        defer { token.cancel() }
        try store.transaction { tx in
            try tx.set("a", 1)
            try tx.set("b", 2)
        }
        let changes = box.changes
        #expect(changes.count == 1)
        #expect(changes[0].transactionID != nil)
        #expect(changes[0].patches.count == 2)
    }

    @Test func laterWritesFoldIntoEarlierOnTheSamePath() throws {
        let store = store(["x": 1])
        let change = try store.applyTransaction { tx in
            try tx.set("x", 2)
            try tx.set("y", 0)
            try tx.set("x", 3)
        }
        #expect(
            change?.patches == [
                StorePatch(op: .set, keyPath: "x", oldValue: 1, newValue: 3),
                StorePatch(op: .set, keyPath: "y", newValue: 0),
            ])
    }

    @Test func writesThatFoldBackToTheOriginalLeaveNoPatchOrChange() throws {
        let store = store(["x": 1])
        let change = try store.applyTransaction { tx in
            try tx.set("x", 2)
            try tx.set("x", 1)
        }
        #expect(change == nil)
        let created = try store.applyTransaction { tx in
            try tx.set("tmp", 5)
            try tx.remove("tmp")
        }
        #expect(created == nil)
    }

    @Test func aWriteToAnAncestorOrDescendantInBetweenPreventsFolding() throws {
        let store = store(["a": ["b": 1]])
        let change = try store.applyTransaction { tx in
            try tx.set("a.b", 2)
            try tx.set("a.c", 0)  // sibling: does not block
            try tx.merge("a", ["d": 1])  // ancestor: blocks
            try tx.set("a.b", 3)
        }
        #expect(change?.patches.map(\.keyPath.description) == ["a.b", "a.c", "a", "a.b"])
    }

    @Test func elementInsertsAndRemovesNeverFoldAndBlockFoldingOnShiftedPaths() throws {
        let store = store(["items": [["t": "a"], ["t": "b"]]])
        let change = try store.applyTransaction { tx in
            try tx.set("items[1].t", "B")
            try tx.insert("items[0]", ["t": "new"])
            try tx.set("items[1].t", "A")  // now addresses what was items[0]
            try tx.remove("items[0]")
            try tx.insert("items[0]", ["t": "again"])
        }
        #expect(change?.patches.map(\.op) == [.set, .insert, .set, .remove, .insert])
    }

    @Test func mergesFoldWithEachOtherAndWithSets() throws {
        let store = store(["user": ["name": "A"]])
        let change = try store.applyTransaction { tx in
            try tx.merge("user", ["name": "B"])
            try tx.merge("user", ["age": 3])
        }
        #expect(
            change?.patches == [
                StorePatch(op: .merge, keyPath: "user", oldValue: ["name": "A"], newValue: ["name": "B", "age": 3])
            ])
        let back = try store.applyTransaction { tx in
            try tx.merge("user", ["name": "C"])
            try tx.set("user", ["name": "B", "age": 3])
        }
        #expect(back == nil)
        let mixed = try store.applyTransaction { tx in
            try tx.merge("user", ["name": "D"])
            try tx.set("user", ["only": true])
        }
        #expect(
            mixed?.patches == [
                StorePatch(op: .set, keyPath: "user", oldValue: ["name": "B", "age": 3], newValue: ["only": true])
            ])
    }

    @Test func foldedChangesStillInvertToTheOriginalState() throws {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<300 {
            let store = store(["a": ["b": [1, 2]], "c": 3, "u": ["n": 1]])
            let before = store.snapshot()
            let change = try store.applyTransaction { tx in
                for _ in 0..<10 { try? tx.apply(RandomOperations.next(&rng, in: tx.get(.root)!)) }
            }
            var root = store.snapshot()
            if let change { try root.apply(change: change.inverted()) }
            #expect(root == before)
            var replayed = before
            if let change { try replayed.apply(change: change) }
            #expect(replayed == store.snapshot())
        }
    }

    @Test func aThrowingBodyChangesNothing() throws {
        struct Abort: Error {}
        let store = store(["x": 1])
        #expect(throws: Abort.self) {
            try store.transaction { tx in
                try tx.set("x", 2)
                throw Abort()
            }
        }
        #expect(store.snapshot() == ["x": 1])
    }

    @Test func writingThroughTheStoreInsideItsTransactionIsRefusedNotDeadlocked() throws {
        let store = store()
        var inner: StoreError?
        try store.transaction { tx in
            do { try store.apply(.set("x", 1)) } catch { inner = error as? StoreError }
            try tx.set("y", 1)
        }
        #expect(inner?.code == .reentrant)
        #expect(store.snapshot() == ["y": 1])
    }

    @Test func theTransactionSeesItsOwnWrites() throws {
        let store = store(["n": 1])
        try store.transaction { tx in
            try tx.set("n", .integer((tx.get("n")?.integerValue ?? 0) + 1))
            #expect(tx.get("n") == 2)
            #expect(store.get("n") == nil)  // refused from inside (logged), never deadlocks
        }
        #expect(store.get("n") == 2)
    }
}

extension KeyValueStore {
    /// Runs a transaction and returns the change it made, observed through a private registry.
    func applyTransaction(_ body: (StoreTransaction) throws -> Void) throws -> StoreChange? {
        let box = ChangeBox()
        let registry = StoreRegistry()
        try registry.register(self)
        defer { registry.unregister(id) }
        let token = registry.observe { if case .changed(let c) = $0 { box.append(c) } }
        defer { token.cancel() }
        try transaction(body)
        return box.changes.last
    }
}

/// Collects what observers or subscribers hear, from any thread.
final class ChangeBox: Sendable {
    private let state = Mutex<[StoreChange]>([])
    func append(_ change: StoreChange) { state.withLock { $0.append(change) } }
    var changes: [StoreChange] { state.withLock { $0 } }
}
