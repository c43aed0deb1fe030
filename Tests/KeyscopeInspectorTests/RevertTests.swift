import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import Testing

/// Reverting a change: its inverse as a new change, only while the state still holds what it left.
@Suite struct RevertTests {
    @Test func revertingAWriteRestoresTheValueAsANewChange() throws {
        let hub = startedHub()
        let store = try addStore(hub, "r", root: ["cart": ["total": 90]])
        store.set("cart.total", 100)
        let seq = try hub.revert(seq: 2)
        #expect(seq == 3)
        #expect(store.get("cart.total") == 90)
        let change = try #require(hub.entry(seq: 3)?.change)
        #expect(change.patches == [StorePatch(op: .set, keyPath: "cart.total", oldValue: 100, newValue: 90)])
        #expect(change.transactionID != nil)
        #expect(hub.snapshot().store(store.id)?.root == store.snapshot())
    }

    @Test func revertingATransactionRestoresTheStateAndRecordsTheInversePatches() throws {
        let hub = startedHub()
        let original: [String: StoreValue] = [
            "items": ["a", "b", "c"], "user": ["name": "A", "age": 3], "gone": ["deep": true], "n": 1,
        ]
        let store = try addStore(hub, "tx", root: original)
        let made = try store.apply([
            .set("n", 2),  // set with old
            .set("new.path.here", "x"),  // set creating intermediates (recorded at "new")
            .insert("items[1]", "inserted"),  // insert
            .remove("items[3]"),  // element remove ("c")
            .merge("user", ["name": "B", "email": "b@x"]),  // merge with a new and an existing key
            .remove("gone"),  // key remove
            .set("items[3]", "appended"),  // append
        ])
        let change = try #require(made)
        #expect(change.patches.count == 7)
        let seq = try #require(try hub.revert(seq: 2))
        #expect(store.snapshot() == .object(original))
        #expect(hub.entry(seq: seq)?.change?.patches == change.inverted().patches)
        #expect(hub.snapshot().store(store.id)?.root == .object(original))
        // Reverting the revert applies the change again.
        let again = try #require(try hub.revert(seq: seq))
        var expected = StoreValue.object(original)
        try expected.apply(change: change)
        #expect(store.snapshot() == expected)
        // Recorded as the inverse of the inverse: the merge comes back as sets of its keys, the append as an insert.
        #expect(hub.entry(seq: again)?.change?.patches == change.inverted().inverted().patches)
    }

    @Test func aRevertWhoseInverseFoldsIsRecordedFolded() throws {
        let hub = startedHub()
        let store = try addStore(hub, "fold", root: ["user": ["name": "A"]])
        try store.apply([.merge("user", ["name": "B"]), .set("user.name", "C")])
        let seq = try #require(try hub.revert(seq: 2))
        #expect(store.get("user.name") == "A")
        // The inverse is set user.name C→B then B→A: one folded patch C→A.
        #expect(
            hub.entry(seq: seq)?.change?.patches == [
                StorePatch(op: .set, keyPath: "user.name", oldValue: "C", newValue: "A")
            ])
    }

    @Test func aChangedPathIsAConflictAndNothingChanges() throws {
        let hub = startedHub()
        let store = try addStore(hub, "c", root: ["a": 1, "b": 1])
        try store.apply([.set("a", 2), .set("b", 2)])  // seq 2
        store.set("b", 3)  // seq 3: b no longer holds 2
        #expect(refusal { try hub.revert(seq: 2) }?.code == .conflict)
        #expect(store.snapshot() == ["a": 2, "b": 3] && hub.lastSeq == 3)
        // Presence counts: a key the change created and someone removed.
        store.set("fresh", true)  // seq 4
        store.remove("fresh")  // seq 5
        #expect(refusal { try hub.revert(seq: 4) }?.code == .conflict)
        // A key the change removed that someone set again.
        store.remove("a")  // seq 6
        store.set("a", 9)  // seq 7
        #expect(refusal { try hub.revert(seq: 6) }?.code == .conflict)
        // Reverting twice: the second finds the old value, not the change's new one.
        #expect(try hub.revert(seq: 7) == 8)
        #expect(refusal { try hub.revert(seq: 7) }?.code == .conflict)
        #expect(store.snapshot() == ["b": 3] && hub.lastSeq == 8)
    }

    @Test func onlyChangesStillInTheLogCanBeReverted() throws {
        let hub = startedHub(maxEntries: 5)
        let store = try addStore(hub, "old")
        for n in 0..<10 { store.set("n", .integer(Int64(n))) }
        let evicted = refusal { try hub.revert(seq: 2) }
        #expect(evicted?.code == .badRequest && evicted?.message.contains("7...11") == true)
        #expect(refusal { try hub.revert(seq: 99) }?.code == .badRequest)
        #expect(refusal { try hub.revert(seq: 0) }?.code == .badRequest)
        hub.registry.unregister(store.id)  // seq 12: a store event
        #expect(refusal { try hub.revert(seq: 12) }?.code == .badRequest)
        // The change's store is gone.
        #expect(refusal { try hub.revert(seq: 11) }?.code == .unknownStore)
        #expect(store.get("n") == 9)
    }

    @Test func revertingAnEqualWriteChangesNothing() throws {
        let hub = startedHub()
        let store = try addStore(hub, "eq", root: ["a": 1])
        store.set("a", 1)
        #expect(try hub.revert(seq: 2) == nil)
        #expect(hub.lastSeq == 2 && store.get("a") == 1)
    }
}
