import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeTesting
import Synchronization
import Testing

/// Every change of every store gets the next global seq; store events are entries; the hub's copy stays exact.
@Suite struct SequencingTests {
    @Test func seqRisesByExactlyOneAcrossStoresUnderConcurrentWriters() throws {
        let hub = startedHub()
        let stores = try (0..<4).map { try addStore(hub, "s\($0)") }
        let (snapshot, cursor) = hub.makeCursor()
        #expect(snapshot.seq == 4)  // the four registrations
        concurrently(8) { worker in
            let store = stores[worker % 4]
            for n in 0..<300 { store.set(StoreKeyPath(segments: [.key("w\(worker)")]), .integer(Int64(n))) }
        }
        let all = entries(drain(cursor))
        #expect(all.count == 8 * 300)
        #expect(all.map(\.seq) == Array(5...(4 + 8 * 300)))
        #expect(hub.lastSeq == 4 + 8 * 300)
        // Each writer's changes arrive in its own order.
        for worker in 0..<8 {
            let values = all.compactMap { entry -> Int64? in
                guard let patch = entry.change?.patches.first, patch.keyPath.description == "w\(worker)" else {
                    return nil
                }
                return patch.newValue?.integerValue
            }
            #expect(values == (0..<300).map(Int64.init))
        }
    }

    @Test func storeEventsAreEntriesWithTheirOwnSeq() throws {
        let hub = startedHub()
        let factory = DefaultStoreFactory(version: "1.0.0", registry: hub.registry)
        let store = factory.store(scope: .scenario(id: "flow"), storage: .memory)
        store.set("a", 1)
        factory.updateVersion("2.0.0")
        factory.endScenario("flow")
        let log = (1...hub.lastSeq).compactMap(hub.entry(seq:))
        #expect(log.map(\.seq) == [1, 2, 3, 4])
        #expect(log.allSatisfy { $0.storeID == store.id })
        #expect(log[0].event == .registered(version: "1.0.0", root: .emptyObject))
        #expect(log[1].change?.patches == [StorePatch(op: .set, keyPath: "a", newValue: 1)])
        #expect(log[2].event == .reset(version: "2.0.0"))
        #expect(log[3].event == .removed)
        #expect(hub.snapshot().stores.isEmpty)
    }

    @Test func storesRegisteredBeforeStartArePickedUpAsRegistrations() throws {
        let hub = InspectorHub(registry: StoreRegistry())
        let a = KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: ["x": 1])
        try hub.registry.register(a)
        a.set("y", 2)
        #expect(hub.lastSeq == 0)
        hub.start()
        #expect(hub.entry(seq: 1)?.event == .registered(version: .initial, root: ["x": 1, "y": 2]))
        #expect(hub.snapshot().stores == [HubStoreState(id: a.id, version: .initial, root: ["x": 1, "y": 2])])
        a.set("z", 3)
        #expect(hub.entry(seq: 2)?.change?.patches.first?.keyPath == "z")
    }

    @Test func aSnapshotEqualsEveryStoreAfterRandomConcurrentWrites() throws {
        let hub = startedHub()
        let stores = try (0..<3).map { try addStore(hub, "m\($0)") }
        concurrently(6) { worker in
            var random = SplitMix64(seed: UInt64(worker) &* 7919 &+ 1)
            let store = stores[worker % 3]
            for _ in 0..<400 { RandomWrites.perform(on: store, using: &random) }
        }
        let snapshot = hub.snapshot()
        #expect(snapshot.stores.map(\.id) == stores.map(\.id).sorted())
        for store in stores {
            #expect(snapshot.store(store.id)?.root == store.snapshot(), "snapshot of \(store.id)")
        }
    }

    @Test func everySnapshotTakenDuringWritesIsTheLogReplayedUpToItsSeq() throws {
        let hub = startedHub()
        let stores = try (0..<3).map { try addStore(hub, "s\($0)") }
        let snapshots = Collected<HubSnapshot>()
        let writing = Atomic<Bool>(true)
        // Snapshots on their own thread while the writers run, so that stores change between one store's read and
        // the next.
        let snapshotter = Thread {
            repeat { snapshots.append(hub.snapshot()) } while writing.load(ordering: .acquiring)
        }
        snapshotter.start()
        concurrently(3) { worker in
            var random = SplitMix64(seed: UInt64(worker) &* 31 &+ 5)
            for _ in 0..<800 { RandomWrites.perform(on: stores[worker], using: &random) }
        }
        writing.store(false, ordering: .releasing)
        while !snapshotter.isFinished { Thread.sleep(forTimeInterval: 0.001) }
        let all = snapshots.all
        // Checking each one replays the log from the start: 30 of them, spread over the run, are enough.
        let taken = stride(from: 0, to: all.count, by: max(1, all.count / 30)).map { all[$0] }
        #expect(Set(taken.map(\.seq)).count > 1, "the snapshots should fall at different points of the writes")
        for snapshot in taken {
            var replayed = ReplayedState(HubSnapshot(seq: 0, stores: [], subscriptions: []))
            for seq in stride(from: 1, through: snapshot.seq, by: 1) {
                try replayed.apply(try #require(hub.entry(seq: seq)))
            }
            for store in stores {
                #expect(snapshot.store(store.id)?.root == replayed.stores[store.id], "\(store.id) at \(snapshot.seq)")
            }
        }
    }

    @Test func startingWhileStoresAreBeingWrittenLosesNoChange() throws {
        let registry = StoreRegistry()
        let stores = try (0..<3).map { index -> KeyValueStore in
            let store = KeyValueStore(id: StoreID(scope: .scenario(id: "p\(index)"), storage: .memory))
            try registry.register(store)
            return store
        }
        let hub = InspectorHub(registry: registry)
        concurrently(4) { worker in
            if worker == 3 {
                hub.start()
                return
            }
            var random = SplitMix64(seed: UInt64(worker) + 100)
            for _ in 0..<500 { RandomWrites.perform(on: stores[worker], using: &random) }
        }
        let snapshot = hub.snapshot()
        for store in stores { #expect(snapshot.store(store.id)?.root == store.snapshot()) }
        // Replaying the whole log from nothing gives the same state.
        var replayed = ReplayedState(HubSnapshot(seq: 0, stores: [], subscriptions: []))
        for seq in 1...hub.lastSeq { try replayed.apply(try #require(hub.entry(seq: seq))) }
        for store in stores { #expect(replayed.stores[store.id] == store.snapshot()) }
    }

    @Test func stopLogsTheKnownStoresAsRemovedAndIgnoresLaterActivity() throws {
        let hub = startedHub()
        let store = try addStore(hub, "a")
        let (_, cursor) = hub.makeCursor()
        hub.stop()
        store.set("x", 1)
        let read = entries(drain(cursor))
        #expect(read.map(\.event) == [.removed])
        #expect(hub.snapshot().stores.isEmpty && !hub.isRunning)
        hub.start()
        #expect(hub.snapshot().store(store.id)?.root == ["x": 1])
        #expect(entries(drain(cursor)).map(\.event) == [.registered(version: .initial, root: ["x": 1])])
    }
}

/// Random valid and invalid writes, single and in transactions, on paths that collide often. Refused writes
/// (about a third) change nothing; they go through the throwing forms so that they are not logged.
enum RandomWrites {
    static func perform(on store: KeyValueStore, using random: inout SplitMix64) {
        let key = StoreKeyPath(segments: [.key(["a", "b", "c"][random.next(in: 0...2)])])
        let n = Int64(random.next(in: 0...99))
        let operations: [StoreOperation]
        switch random.next(in: 0...7) {
        case 0: operations = [.set(key, .integer(n))]
        case 1: operations = [.set(key.appending(key: "deep").appending(key: "x"), .string("v\(n)"))]
        case 2: operations = [.remove(key)]
        case 3: operations = [.merge(key, ["m\(n % 3)": .integer(n)])]
        case 4:
            if store.get("list")?.arrayValue == nil { _ = try? store.apply(.set("list", [])) }
            operations = [.insert("list[0]", .integer(n))]
        case 5: operations = [.remove("list[0]")]
        case 6: operations = [.set("list[1]", .bool(n.isMultiple(of: 2)))]
        default:
            _ = try? store.transaction { tx in
                try tx.set(key, .integer(n))
                try tx.set(key, .integer(n + 1))
                try tx.merge("t", ["k\(n % 4)": .integer(n)])
                if n.isMultiple(of: 5) { try tx.remove("t") }
            }
            return
        }
        _ = try? store.apply(operations)
    }
}
