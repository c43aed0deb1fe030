import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeTesting
import Synchronization
import Testing

/// Cursors: snapshot plus entries sees every change once; slow clients get a gap; batching; resuming.
@Suite struct CursorTests {
    @Test func aSnapshotAndItsCursorSeeEveryLaterChangeExactlyOnce() throws {
        let hub = startedHub()
        let stores = try (0..<3).map { try addStore(hub, "c\($0)") }
        let taken = Mutex<(HubSnapshot, HubCursor)?>(nil)
        concurrently(4) { worker in
            if worker == 3 {
                for _ in 0..<2000 where hub.lastSeq < 300 { Thread.sleep(forTimeInterval: 0.0001) }
                let (snapshot, cursor) = hub.makeCursor()
                taken.withLock { $0 = (snapshot, cursor) }
                return
            }
            var random = SplitMix64(seed: UInt64(worker) + 7)
            for _ in 0..<600 { RandomWrites.perform(on: stores[worker], using: &random) }
        }
        let (snapshot, cursor) = try #require(taken.withLock { $0 })
        var replayed = ReplayedState(snapshot)
        for entry in entries(drain(cursor, maxEntries: 37)) { try replayed.apply(entry) }
        #expect(replayed.seq == hub.lastSeq)
        for store in stores { #expect(replayed.stores[store.id] == store.snapshot()) }
    }

    @Test func aSlowCursorGetsAGapThenASnapshotAndContinuesWhileAFastOneSeesEverything() throws {
        let hub = startedHub(maxEntries: 10)
        let store = try addStore(hub, "s")
        let (fastStart, fast) = hub.makeCursor()
        let (slowStart, slow) = hub.makeCursor()
        var fastSeen = ReplayedState(fastStart)
        for n in 0..<50 {
            store.set("n", .integer(Int64(n)))
            for entry in entries(drain(fast)) { try fastSeen.apply(entry) }
        }
        #expect(fastSeen.seq == 51 && fastSeen.stores[store.id] == ["n": 49])
        // The slow cursor was at 2; the log now holds 42...51.
        #expect(hub.logRange == 42...51)
        let reads = drain(slow)
        #expect(reads.count == 1)
        guard case .gap(let from, let to, let snapshot) = reads.first else {
            Issue.record("expected a gap, got \(reads)")
            return
        }
        #expect(slowStart.seq == 1 && from == 2 && to == 51 && snapshot.seq == 51)
        #expect(snapshot.store(store.id)?.root == ["n": 49])
        #expect(slow.nextSeq == 52)
        store.set("n", 50)
        let after = entries(drain(slow))
        #expect(after.map(\.seq) == [52])
        #expect(entries(drain(fast)).map(\.seq) == [52])
    }

    @Test func manyQueuedEntriesComeInOneBatchWithinTheLimits() throws {
        let hub = startedHub()
        let store = try addStore(hub, "b")
        let (_, cursor) = hub.makeCursor()
        for n in 0..<500 { store.set("k", .integer(Int64(n))) }
        let first = try #require(cursor.next(maxEntries: 100))
        guard case .entries(let hundred) = first else {
            Issue.record("expected entries")
            return
        }
        #expect(hundred.map(\.seq) == Array(2...101))
        guard case .entries(let rest)? = cursor.next() else {
            Issue.record("expected entries")
            return
        }
        #expect(rest.map(\.seq) == Array(102...501))
        #expect(cursor.next() == nil)
        // A byte limit cuts a batch after the entries that fit (lines plus commas), but never returns nothing.
        for n in 0..<10 { store.set("k", .integer(Int64(n))) }
        let lineSize = try #require(hub.entry(seq: 502)).lineBytes.count
        guard case .entries(let three)? = cursor.next(maxBytes: 3 * lineSize + 2) else {
            Issue.record("expected entries")
            return
        }
        #expect(three.count == 3)
        guard case .entries(let one)? = cursor.next(maxBytes: 1) else {
            Issue.record("expected entries")
            return
        }
        #expect(one.map(\.seq) == [505])
    }

    @Test func aChangesFrameConcatenatesTheEntriesLines() throws {
        let hub = startedHub()
        let store = try addStore(hub, "f")
        let (_, cursor) = hub.makeCursor()
        store.set("a", 1)
        try store.apply([.set("b", 2), .remove("a")])
        let batch = entries(drain(cursor))
        let frame = HubMessages.changes(batch)
        let text = String(decoding: frame, as: UTF8.self)
        #expect(text.hasPrefix(#"{"type":"changes","entries":[{"patches":"#))
        let object = try parsed(frame)
        #expect(object["type"] == "changes")
        let lines = try batch.map { try StoreValue(jsonBytes: $0.lineBytes) }
        #expect(object["entries"] == .array(lines))
        #expect(HubMessages.changes([]) == Array(#"{"type":"changes","entries":[]}"#.utf8))
        #expect(HubMessages.gap(from: 3, to: 9) == Array(#"{"type":"gap","from":3,"to":9}"#.utf8))
    }

    @Test func aReusedFrameBufferHoldsTheHeadroomAndTheNewFrameOnly() throws {
        let hub = startedHub()
        let store = try addStore(hub, "g")
        let (_, cursor) = hub.makeCursor()
        store.set("a", .string(String(repeating: "x", count: 500)))
        var buffer: [UInt8] = []
        HubMessages.appendChanges(entries(drain(cursor)), headroom: 16, to: &buffer)
        let firstCapacity = buffer.capacity
        // A sender empties the buffer, keeping its capacity, and fills it with the next frame.
        buffer.removeAll(keepingCapacity: true)
        store.set("b", 2)
        let batch = entries(drain(cursor))
        HubMessages.appendChanges(batch, headroom: 16, to: &buffer)
        #expect(buffer.capacity == firstCapacity, "the smaller frame fits the kept buffer")
        #expect(buffer.prefix(16).allSatisfy { $0 == 0 })
        #expect(Array(buffer.dropFirst(16)) == HubMessages.changes(batch))
        let line = try StoreValue(jsonBytes: batch[0].lineBytes)
        #expect(try parsed(Array(buffer.dropFirst(16)))["entries"] == .array([line]))
    }

    @Test func aCursorResumesFromAKnownSeqOrResyncs() throws {
        let hub = startedHub(maxEntries: 20)
        let store = try addStore(hub, "r")
        for n in 0..<30 { store.set("n", .integer(Int64(n))) }  // seqs 2...31; the log holds 12...31
        let resumed = hub.makeCursor(resumingAfter: 25)
        #expect(entries(drain(resumed)).map(\.seq) == Array(26...31))
        let caughtUp = hub.makeCursor(resumingAfter: 31)
        #expect(caughtUp.next() == nil)
        store.set("n", 30)
        #expect(entries(drain(caughtUp)).map(\.seq) == [32])
        let evicted = hub.makeCursor(resumingAfter: 5)
        guard case .gap(6, 32, let snapshot)? = evicted.next() else {
            Issue.record("expected gap 6...32")
            return
        }
        #expect(snapshot.store(store.id)?.root == ["n": 30])
        let unknown = hub.makeCursor(resumingAfter: 1000)
        guard case .snapshot(let fresh)? = unknown.next() else {
            Issue.record("expected a snapshot")
            return
        }
        #expect(fresh.seq == 32 && unknown.nextSeq == 33)
        // A resync request: a fresh snapshot, and the cursor continues after it.
        store.set("n", 31)
        let snapshotNow = resumed.resync()
        #expect(snapshotNow.seq == 33 && resumed.next() == nil)
    }

    @Test func subscriptionChangesReachEachCursorOnceWithFreshCounts() throws {
        let hub = startedHub()
        let store = try addStore(hub, "sub", root: ["a": 1])
        let (snapshot, cursor) = hub.makeCursor()
        #expect(snapshot.subscriptions.isEmpty)
        #expect(cursor.subscriptionsUpdate() == nil)
        let subscription = store.publisher(for: ["a", "b"], label: "Panel").sink { _ in }
        defer { subscription.cancel() }
        let list = try #require(cursor.subscriptionsUpdate())
        #expect(list.count == 1 && list[0].label == "Panel" && list[0].keyPaths == ["a", "b"])
        #expect(cursor.subscriptionsUpdate() == nil)
        store.set("a", 2)
        // Not a new list, but when asked the counts are the store's current ones.
        #expect(cursor.subscriptionsUpdate() == nil)
        #expect(hub.subscriptions().first?.deliveries == store.subscriptions.first?.deliveries)
        // A resumed cursor gets the list first, since it gets no snapshot.
        #expect(hub.makeCursor(resumingAfter: hub.lastSeq).subscriptionsUpdate()?.count == 1)
        let message = try parsed(HubMessages.subscriptions(list))
        #expect(message["type"] == "subscriptions")
        #expect(message["list"]?.arrayValue?.count == 2)  // one object per path
    }

    @Test func movedDeliveryCountsResendTheListOnTheTimerAndOnlyThen() throws {
        let hub = startedHub(deliveriesRefresh: .milliseconds(20))
        let store = try addStore(hub, "counts", root: ["a": 1])
        let subscription = store.publisher(for: "a", label: "Counter").sink { _ in }
        defer { subscription.cancel() }
        let (snapshot, cursor) = hub.makeCursor()
        #expect(snapshot.subscriptions.count == 1)
        // Once the timer has seen the first counts, nothing more is sent while no delivery happens.
        _ = waitForList(cursor)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(cursor.subscriptionsUpdate() == nil, "no delivery happened, so no new list")
        let before = store.subscriptions[0].deliveries
        store.set("a", 2)
        store.set("a", 3)
        let list = try #require(waitForList(cursor), "the timer re-sends the list after deliveries")
        #expect(list[0].deliveries == before + 2)
    }

    @Test func withoutTheTimerDeliveriesAloneSendNothing() throws {
        let hub = startedHub(deliveriesRefresh: nil)
        let store = try addStore(hub, "quiet", root: ["a": 1])
        let subscription = store.publisher(for: "a").sink { _ in }
        defer { subscription.cancel() }
        let (_, cursor) = hub.makeCursor()
        store.set("a", 2)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(cursor.subscriptionsUpdate() == nil)
    }

    /// Polls a cursor for a new subscription list for up to 5 s.
    private func waitForList(_ cursor: HubCursor) -> [SubscriptionInfo]? {
        for _ in 0..<500 {
            if let list = cursor.subscriptionsUpdate() { return list }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }
}
