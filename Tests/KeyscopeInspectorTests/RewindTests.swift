import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import KeyscopeTesting
import Synchronization
import Testing

/// The error a rewind throws, or nil when it succeeds.
private func rewindRefusal(_ hub: InspectorHub, _ seq: Int) -> HubError? {
    do {
        _ = try hub.rewind(toSeq: seq)
        return nil
    } catch {
        return error
    }
}

/// A commit gate that refuses every change while it is closed, and may run something first (under the store's lock).
private final class Barrier: StoreCommitGate {
    private let closed = Mutex(false)
    private let before = Mutex<(@Sendable () -> Void)?>(nil)

    func close(running action: (@Sendable () -> Void)? = nil) {
        closed.withLock { $0 = true }
        before.withLock { $0 = action }
    }

    func willCommit(_ change: StoreChange, before: StoreValue, after: StoreValue) throws(StoreError) {
        guard closed.withLock({ $0 }) else { return }
        self.before.withLock { $0 }?()
        throw StoreError(code: .badRequest, message: "the barrier is closed")
    }
}

/// Rewinding the live stores to an earlier seq: every change after it undone, store by store, or nothing at all.
@Suite struct RewindTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func rewindingRestoresEveryStoreAsTheSnapshotAtThatSeqHadIt(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let hub = startedHub()
        let stores = try (0..<4).map { try addStore(hub, "p\($0)", root: ["a": 1, "list": [1, 2]]) }
        for _ in 0..<random.next(in: 0...60) {
            RandomWrites.perform(on: stores[random.next(in: 0...3)], using: &random)
        }
        let then = hub.snapshot()
        // Later: more writes and transactions, a store that joins and changes, a store that takes no part.
        let late = try addStore(hub, "late", root: ["joined": true])
        let count = random.next(in: 1...120)
        for _ in 0..<count {
            let target = random.next(in: 0...4)
            RandomWrites.perform(on: target == 4 ? late : stores[random.next(in: 0...2)], using: &random)
        }
        let changed = Set((then.seq + 1...hub.lastSeq).compactMap { hub.entry(seq: $0)?.change?.storeID })
        let undone = (then.seq + 1...hub.lastSeq).filter { hub.entry(seq: $0)?.change != nil }.count

        let lastBefore = hub.lastSeq
        let result = try hub.rewind(toSeq: then.seq)
        for store in stores { #expect(store.snapshot() == then.store(store.id)?.root, "\(store.id), seed \(seed)") }
        #expect(late.snapshot() == ["joined": true], "a store registered later keeps its registration state")
        #expect(result.stores == changed.sorted())
        #expect(result.changes == undone)
        #expect(result.skipped.isEmpty)
        // One transaction per store whose state moved, each a change of the log like any other.
        let made = (lastBefore + 1...max(lastBefore, hub.lastSeq)).compactMap { hub.entry(seq: $0)?.change }
        #expect(made.allSatisfy { $0.transactionID != nil })
        #expect(Set(made.map(\.storeID)).count == made.count)
        #expect(result.seq == (made.isEmpty ? nil : hub.lastSeq))
        #expect(hub.snapshot().stores.map(\.root) == (stores + [late]).sorted { $0.id < $1.id }.map { $0.snapshot() })
    }

    @Test func aRewindIsOneTransactionPerStoreThatRevertsLikeAnyChange() throws {
        let hub = startedHub()
        let a = try addStore(hub, "a", root: ["n": 0])
        let b = try addStore(hub, "b", root: ["items": ["x"]])
        let target = hub.lastSeq
        a.set("n", 1)
        b.insert("items[0]", "y")
        a.set("n", 2)
        try a.apply([.set("n", 3), .set("m", true)])
        let result = try hub.rewind(toSeq: target)
        #expect(result.changes == 4 && result.stores == [a.id, b.id])
        #expect(a.snapshot() == ["n": 0] && b.snapshot() == ["items": ["x"]])
        let seqA = target + 5
        #expect(
            hub.entry(seq: seqA)?.change?.patches == [
                StorePatch(op: .remove, keyPath: "m", oldValue: true),
                StorePatch(op: .set, keyPath: "n", oldValue: 3, newValue: 0),
            ])
        #expect(result.seq == seqA + 1)
        #expect(
            result.jsonObject == [
                "seq": .integer(Int64(seqA + 1)), "changes": 4,
                "stores": [
                    .string(a.id.description), .string(b.id.description),
                ], "skipped": [],
            ])
        // The rewind's own changes revert like any other: the state comes back.
        try hub.revert(seq: seqA)
        #expect(a.snapshot() == ["n": 3, "m": true])
    }

    @Test func rewindingToTheNewestSeqChangesNothing() throws {
        let hub = startedHub()
        let store = try addStore(hub, "still", root: ["a": 1])
        store.set("a", 2)
        let last = hub.lastSeq
        let result = try hub.rewind(toSeq: last)
        #expect(result == RewindResult(seq: nil, changes: 0, stores: [], skipped: []))
        #expect(result.jsonObject == ["seq": .null, "changes": 0, "stores": [], "skipped": []])
        #expect(hub.lastSeq == last && store.get("a") == 2)
    }

    @Test func changesThatFoldBackAreUndoneWithoutAChange() throws {
        let hub = startedHub()
        let store = try addStore(hub, "fold", root: ["a": 1])
        let target = hub.lastSeq
        store.set("a", 2)
        store.set("a", 1)
        let result = try hub.rewind(toSeq: target)
        #expect(result.seq == nil && result.changes == 2 && result.stores == [store.id])
        #expect(hub.lastSeq == target + 2)
    }

    @Test func aReadOnlyHubRefusesBeforeAnythingElse() throws {
        let hub = startedHub(readOnly: true)
        let store = try addStore(hub, "ro", root: ["a": 1])
        store.set("a", 2)
        for seq in [0, 1, 99, -5] {
            #expect(rewindRefusal(hub, seq)?.code == .readOnly, "seq \(seq)")
        }
        #expect(store.get("a") == 2 && hub.lastSeq == 2)
    }

    @Test func onlySeqsWithinTheLogCanBeRewoundTo() throws {
        let hub = startedHub(maxEntries: 5)
        let store = try addStore(hub, "bounds")
        for n in 0..<10 { store.set("n", .integer(Int64(n))) }  // seqs 2...11; the log keeps 7...11
        #expect(hub.logRange == 7...11)
        let evicted = rewindRefusal(hub, 5)
        #expect(
            evicted?.code == .badRequest && evicted?.message.contains("6...11") == true,
            "\(String(describing: evicted))")
        #expect(rewindRefusal(hub, 12)?.code == .badRequest)
        #expect(rewindRefusal(hub, -1)?.code == .badRequest)
        #expect(store.get("n") == 9 && hub.lastSeq == 11)
        // The oldest seq it can rewind to is the one before the log's first entry.
        let result = try hub.rewind(toSeq: 6)
        #expect(store.get("n") == 4 && result.changes == 5)
    }

    @Test func anEmptyHubRewindsToZero() throws {
        let hub = startedHub()
        #expect(try hub.rewind(toSeq: 0) == RewindResult(seq: nil, changes: 0, stores: [], skipped: []))
        #expect(rewindRefusal(hub, 1)?.code == .badRequest)
    }

    @Test func aStoreResetAfterTheSeqIsAConflictAndNothingChanges() throws {
        let hub = startedHub()
        let other = try addStore(hub, "aaa", root: ["x": 1])
        let factory = DefaultStoreFactory(version: "1.0.0", registry: hub.registry)
        let store = factory.store(scope: .scenario(id: "reset"), storage: .memory)
        store.set("a", 1)
        let target = hub.lastSeq
        other.set("x", 2)
        store.set("a", 2)
        factory.updateVersion("2.0.0")
        store.set("b", 3)
        let last = hub.lastSeq
        let refused = rewindRefusal(hub, target)
        #expect(refused?.code == .conflict && refused?.message.contains("reset") == true)
        #expect(other.get("x") == 2 && store.snapshot() == ["b": 3] && hub.lastSeq == last)
        // After the reset it can be rewound.
        #expect(try hub.rewind(toSeq: last - 1).stores == [store.id])
        #expect(store.snapshot() == .emptyObject)
    }

    @Test func removedStoresAreSkippedAndTheOthersRewound() throws {
        let hub = startedHub()
        let kept = try addStore(hub, "kept", root: ["a": 1])
        let gone = try addStore(hub, "gone", root: ["b": 1])
        let back = try addStore(hub, "back", root: ["c": 1])
        let target = hub.lastSeq
        kept.set("a", 2)
        gone.set("b", 2)
        back.set("c", 2)
        hub.registry.unregister(gone.id)
        let removedAt = hub.lastSeq
        hub.registry.unregister(back.id)
        let again = KeyValueStore(id: back.id, root: ["c": 10])
        try hub.registry.register(again)
        let registeredAt = hub.lastSeq
        again.set("c", 11)
        // A store that joined and left after the target was not there then, and is not there now: nothing to say.
        let passing = try addStore(hub, "passing")
        passing.set("p", 1)
        hub.registry.unregister(passing.id)

        let result = try hub.rewind(toSeq: target)
        #expect(kept.get("a") == 1)
        #expect(again.snapshot() == ["c": 10], "registered again: rewound to its registration")
        #expect(result.stores == [back.id, kept.id])
        #expect(result.changes == 2)
        #expect(result.skipped.map(\.store) == [back.id, gone.id])
        #expect(result.skipped.last?.reason == "removed at seq \(removedAt); a removed store cannot come back")
        #expect(result.skipped.first?.reason.contains("registered again at seq \(registeredAt)") == true)
        let wire = result.jsonObject["skipped"]?.arrayValue?.last
        #expect(wire?["store"] == .string(gone.id.description) && wire?["reason"]?.stringValue?.isEmpty == false)
    }

    @Test func storesRegisteredAfterTheSeqStayWithTheirChangesUndone() throws {
        let hub = startedHub()
        let target = hub.lastSeq
        let fresh = try addStore(hub, "fresh", root: ["list": [1]])
        fresh.insert("list[0]", 0)
        try fresh.apply([.set("x", 1), .remove("list[1]")])
        let result = try hub.rewind(toSeq: target)
        #expect(fresh.snapshot() == ["list": [1]])
        #expect(result.stores == [fresh.id] && result.changes == 2 && result.skipped.isEmpty)
        #expect(hub.snapshot().stores.map(\.id) == [fresh.id])
    }

    @Test func whenALaterStoreRefusesTheEarlierOnesArePutForwardAgain() throws {
        let hub = startedHub()
        let first = try addStore(hub, "a1", root: ["n": 0, "list": ["x"]])
        let barrier = Barrier()
        let refusing = KeyValueStore(id: StoreID(scope: .scenario(id: "b2"), storage: .memory), gate: barrier)
        try hub.registry.register(refusing)
        let target = hub.lastSeq
        first.set("n", 1)
        try first.apply([.insert("list[0]", "y"), .set("other", true)])
        refusing.set("m", 1)
        let expected = first.snapshot()
        // Under the refusing store's lock, right before it refuses, a write slips into the first store (already
        // rewound) on a path the rewind did not touch: putting it forward keeps that write.
        barrier.close { first.set("late", 1) }
        let last = hub.lastSeq
        let refused = rewindRefusal(hub, target)
        #expect(refused?.code == .conflict)
        #expect(refused?.message.contains("store \(refusing.id)") == true)
        #expect(refused?.message.contains("put forward again, nothing changed") == true, "\(refused?.message ?? "")")
        var withLate = expected
        try withLate.apply(patch: StorePatch(op: .set, keyPath: "late", newValue: 1))
        #expect(first.snapshot() == withLate)
        #expect(refusing.snapshot() == ["m": 1])
        // The log shows the rewind, the slipped write and the way forward: a client replaying it agrees.
        let entries = (last + 1...hub.lastSeq).compactMap { hub.entry(seq: $0) }
        #expect(entries.map(\.storeID) == [first.id, first.id, first.id])
        #expect(hub.snapshot().store(first.id)?.root == first.snapshot())
    }

    @Test func aStoreThatCannotBePutForwardIsNamed() throws {
        let hub = startedHub()
        let first = try addStore(hub, "a1", root: ["n": 0])
        let barrier = Barrier()
        let refusing = KeyValueStore(id: StoreID(scope: .scenario(id: "b2"), storage: .memory), gate: barrier)
        try hub.registry.register(refusing)
        let target = hub.lastSeq
        first.set("n", 1)
        refusing.set("m", 1)
        // The slipped write takes the very path the rewind set back: the way forward no longer applies.
        barrier.close { first.set("n", 7) }
        let refused = rewindRefusal(hub, target)
        #expect(refused?.code == .conflict)
        #expect(refused?.message.contains("store \(first.id) could not be put forward again") == true)
        #expect(first.get("n") == 7 && refusing.snapshot() == ["m": 1])
    }

    @Test func writesDuringARewindAreUndoneOrStayButTheLogAlwaysAgrees() throws {
        let hub = startedHub()
        let stores = try (0..<3).map { try addStore(hub, "c\($0)", root: ["a": 0]) }
        var random = SplitMix64(seed: 99)
        for _ in 0..<50 { RandomWrites.perform(on: stores[random.next(in: 0...2)], using: &random) }
        let targets = Collected<Int>()
        let writing = Atomic<Bool>(true)
        let rewinder = Thread {
            var seed = SplitMix64(seed: 7)
            repeat {
                let range = hub.logRange ?? 0...0
                let target = seed.next(in: range.lowerBound - 1...range.upperBound)
                if (try? hub.rewind(toSeq: target)) != nil { targets.append(target) }
            } while writing.load(ordering: .acquiring)
        }
        rewinder.start()
        concurrently(3) { worker in
            var random = SplitMix64(seed: UInt64(worker) &+ 11)
            for _ in 0..<300 { RandomWrites.perform(on: stores[worker], using: &random) }
        }
        writing.store(false, ordering: .releasing)
        while !rewinder.isFinished { Thread.sleep(forTimeInterval: 0.001) }
        #expect(!targets.all.isEmpty)
        // Every change (the rewinds' included) is in the log in order: replaying it gives the stores.
        var replayed = ReplayedState(HubSnapshot(seq: 0, stores: [], subscriptions: []))
        for seq in 1...hub.lastSeq { try replayed.apply(try #require(hub.entry(seq: seq))) }
        for store in stores { #expect(replayed.stores[store.id] == store.snapshot()) }
        // With the writers gone, a rewind to a seq before the last one's result gives that state exactly.
        let then = hub.snapshot()
        for _ in 0..<20 { RandomWrites.perform(on: stores[random.next(in: 0...2)], using: &random) }
        try hub.rewind(toSeq: then.seq)
        for store in stores { #expect(store.snapshot() == then.store(store.id)?.root) }
    }

    @Test func aStoppedHubSkipsEveryStore() throws {
        let hub = startedHub()
        let store = try addStore(hub, "stop", root: ["a": 1])
        let target = hub.lastSeq
        store.set("a", 2)
        hub.stop()
        let result = try hub.rewind(toSeq: target)
        #expect(result.stores.isEmpty && result.skipped.map(\.store) == [store.id])
        #expect(store.get("a") == 2)
    }
}
