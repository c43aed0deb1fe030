import Foundation
import Synchronization
import Testing

@testable import KeyscopeCore

/// A gate sees every change with the states around it, and a refusal leaves the store, its subscribers and its
/// observers as if nothing had been written.
@Suite struct CommitGateTests {
    /// Refuses any change that leaves `total` negative; remembers what it accepted.
    final class NonNegativeTotal: StoreCommitGate {
        let accepted = Mutex<[(before: StoreValue, after: StoreValue, patches: Int)]>([])
        func willCommit(_ change: StoreChange, before: StoreValue, after: StoreValue) throws(StoreError) {
            if let total = after["total"]?.integerValue, total < 0 {
                throw StoreError(code: .readOnly, message: "total cannot go below 0")
            }
            accepted.withLock { $0.append((before, after, change.patches.count)) }
        }
    }

    let id = StoreID(scope: .app, storage: .memory)

    @Test func anAcceptedWriteIsCommittedAndTheGateSawBothStates() throws {
        let gate = NonNegativeTotal()
        let store = KeyValueStore(id: id, root: ["total": 1], gate: gate)
        _ = try store.apply([.set("total", 5), .set("note", "ok")], transactionID: nil)
        #expect(store.get("total") == 5)
        let seen = gate.accepted.withLock { $0 }
        #expect(seen.count == 1)
        #expect(seen.first?.before == ["total": 1])
        #expect(seen.first?.after == ["total": 5, "note": "ok"])
        #expect(seen.first?.patches == 2)
    }

    @Test func aRefusedWriteChangesNothingAndReachesNoObserver() throws {
        let registry = StoreRegistry()
        let heard = Mutex(0)
        let token = registry.observe { activity in
            if case .changed = activity { heard.withLock { $0 += 1 } }
        }
        defer { token.cancel() }
        let store = KeyValueStore(id: id, root: ["total": 1], gate: NonNegativeTotal())
        try registry.register(store)
        let published = Mutex<[StoreValue?]>([])
        let subscription = store.publisher(for: "total").sink { value in published.withLock { $0.append(value) } }
        defer { subscription.cancel() }
        #expect(throws: StoreError.self) {
            try store.apply([.set("note", "x"), .set("total", -1)], transactionID: nil)
        }
        #expect(throws: StoreError.self) {
            try store.transaction { tx in
                try tx.set("total", -2)
            }
        }
        #expect(store.snapshot() == ["total": 1])
        #expect(heard.withLock { $0 } == 0)
        #expect(published.withLock { $0 }.allSatisfy { $0 == 1 })
        // The store still takes good writes afterwards.
        _ = try store.apply([.set("total", 2)], transactionID: nil)
        #expect(store.get("total") == 2)
        #expect(heard.withLock { $0 } == 1)
    }

    @Test func theRefusalKeepsItsCode() {
        let store = KeyValueStore(id: id, root: ["total": 1], gate: NonNegativeTotal())
        do {
            _ = try store.apply([.set("total", -1)], transactionID: nil)
            Issue.record("the gate should have refused")
        } catch {
            #expect(error.code == .readOnly)
            #expect(error.message.contains("below 0"))
        }
    }
}
