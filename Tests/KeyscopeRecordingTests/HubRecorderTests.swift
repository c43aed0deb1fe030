import Dispatch
import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopeRecording
import Synchronization
import Testing

/// A started hub on a private registry (no delivery-count timer: nothing moves unless a test writes).
func recordedHub(maxEntries: Int = 100_000) -> InspectorHub {
    let hub = InspectorHub(
        registry: StoreRegistry(), options: HubOptions(maxEntries: maxEntries, deliveriesRefresh: nil))
    hub.start()
    return hub
}

@discardableResult
func addRecordedStore(_ hub: InspectorHub, _ name: String, root: [String: StoreValue] = [:]) throws -> KeyValueStore {
    let store = KeyValueStore(id: scenarioStoreID(name), root: root)
    try hub.registry.register(store)
    return store
}

@Suite struct HubRecorderTests {
    @Test func concurrentWritersAreRecordedWithoutLossOrRepeats() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let hub = recordedHub()
        let stores = try (0..<4).map { try addRecordedStore(hub, "s\($0)", root: ["n": 0, "items": []]) }
        for store in stores { store.set("before", "the recording") }
        let recorder = try HubRecorder(
            hub: hub, to: folder.file("busy.kslog"), options: .init(pollInterval: .milliseconds(2)))
        let headerSeq = recorder.status.headerLiveSeq
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            let store = stores[thread]
            for n in 1...400 {
                switch n % 5 {
                case 0: store.set("n", .integer(Int64(n)))
                case 1: store.insert("items[0]", .integer(Int64(n)))
                case 2: store.remove("items[1]")
                case 3: store.merge("m", ["n": .integer(Int64(n)), "t": .integer(Int64(thread))])
                default:
                    _ = try? store.transaction { tx in
                        try tx.set("n", .integer(Int64(-n)))
                        try tx.set("last", .integer(Int64(n)))
                    }
                }
                // Another thread writes to every store now and then, so that stores interleave in the log.
                if n % 50 == 0 { stores[(thread + 1) % 4].set("cross", .integer(Int64(n))) }
            }
        }
        try addRecordedStore(hub, "late", root: ["x": 1]).set("x", 2)
        hub.registry.unregister(scenarioStoreID("s3"))
        let status = recorder.stop()
        #expect(status.state == .ended)
        #expect(status.endReason == .stopped)

        let replayed = try WrittenRecording(contentsOf: folder.file("busy.kslog"))
        #expect(replayed.header.extras["liveSeq"] == .integer(Int64(headerSeq)))
        // Every live entry after the header's seq, once each, in order.
        let live = replayed.liveSeqs.map { Int($0!) }
        #expect(live == Array((headerSeq + 1)...hub.lastSeq))
        #expect(status.events == live.count)
        #expect(
            status.bytes
                == (try FileManager.default.attributesOfItem(atPath: folder.file("busy.kslog").path)[.size] as! Int))
        // The replayed state is the stores' own.
        var expected: [StoreID: StoreValue] = [:]
        for store in hub.registry.stores { expected[store.id] = (store as! KeyValueStore).snapshot() }
        #expect(replayed.stores == expected)
        // And each line is the hub's entry of its live seq.
        for (entry, seq) in zip(replayed.entries, live) {
            let hubEntry = try #require(hub.entry(seq: seq))
            #expect(entry.event.storeID == hubEntry.storeID)
            if case .change(let change) = entry.event { #expect(change == hubEntry.change) }
        }
    }

    @Test func stopReturnsWhileTheStoresNeverRest() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let hub = recordedHub(maxEntries: 1_000_000)
        let store = try addRecordedStore(hub, "busy", root: ["n": 0])
        let recorder = try HubRecorder(
            hub: hub, to: folder.file("busy.kslog"), options: .init(pollInterval: .milliseconds(1)))
        let running = RecorderStopFlag()
        let writer = Thread {
            var n: Int64 = 0
            while !running.stopped {
                n += 1
                store.set("n", .integer(n))
                // Busy, but not more than a debug build's recorder can follow on a small machine.
                if n % 64 == 0 { Thread.sleep(forTimeInterval: 0.001) }
            }
        }
        writer.start()
        Thread.sleep(forTimeInterval: 0.2)
        let status = recorder.stop()
        running.stop()
        #expect(status.endReason == .stopped)
        #expect(status.events > 0)
        let replayed = try WrittenRecording(contentsOf: folder.file("busy.kslog"))
        #expect(replayed.entries.count == status.events)
    }

    @Test func fallingBehindEndsTheRecordingAndKeepsWhatCameBefore() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let hub = recordedHub(maxEntries: 10)
        let store = try addRecordedStore(hub, "a", root: ["n": 0])
        let recorder = try HubRecorder(
            hub: hub, to: folder.file("behind.kslog"), options: .init(pollInterval: .seconds(3600)))
        for n in 1...5 { store.set("n", .integer(Int64(n))) }
        #expect(recorder.catchUp().events == 5)
        for n in 6...100 { store.set("n", .integer(Int64(n))) }
        let status = recorder.stop()
        #expect(status.endReason == .fellBehind)
        #expect(status.message?.contains("up to live seq") == true)
        let replayed = try WrittenRecording(contentsOf: folder.file("behind.kslog"))
        #expect(replayed.entries.count == 5)
        #expect(replayed.stores[scenarioStoreID("a")] == ["n": 5])
    }

    @Test func aDurationEndsTheRecordingOnItsOwn() async throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let hub = recordedHub()
        let store = try addRecordedStore(hub, "a", root: ["n": 0])
        let began = ContinuousClock.now
        let recorder = try HubRecorder(
            hub: hub, to: folder.file("timed.kslog"),
            options: .init(duration: .milliseconds(200), pollInterval: .milliseconds(5)))
        store.set("n", 1)
        let status = await recorder.ended()
        #expect(ContinuousClock.now - began >= .milliseconds(200))
        #expect(status.endReason == .duration)
        #expect(status.events == 1)
        store.set("n", 2)
        #expect(recorder.stop() == status, "an ended recording stays as it ended")
    }

    @Test func theByteBoundEndsTheRecordingBeforeTheFileWouldPassIt() async throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let hub = recordedHub()
        let store = try addRecordedStore(hub, "a", root: ["n": 0])
        let url = folder.file("bounded.kslog")
        let recorder = try HubRecorder(
            hub: hub, to: url, options: .init(maxBytes: 4096, pollInterval: .milliseconds(5)))
        for n in 1...200 { store.set("n", .integer(Int64(n))) }
        let status = await recorder.ended()
        #expect(status.endReason == .maxBytes)
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int
        #expect(size <= 4096)
        #expect(size == status.bytes)
        let replayed = try WrittenRecording(contentsOf: url)
        #expect(replayed.entries.count == status.events)
        #expect(replayed.stores[scenarioStoreID("a")] == ["n": .integer(Int64(status.events))])
    }

    @Test func storeEventsAreRecordedResetIncluded() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let hub = recordedHub()
        let factory = DefaultStoreFactory(version: "1.4.0", registry: hub.registry)
        let profile = factory.store(scope: .app, storage: .memory)
        profile.set("name", "Ada")
        let recorder = try HubRecorder(hub: hub, to: folder.file("events.kslog"))
        let checkout = factory.store(scope: .scenario(id: "checkout"), storage: .memory)
        checkout.set("step", "address")
        factory.endScenario("checkout")
        factory.updateVersion("2.0.0")
        profile.set("name", "Grace")
        recorder.stop()
        let replayed = try WrittenRecording(contentsOf: folder.file("events.kslog"))
        let kinds = replayed.entries.map { entry -> String in
            switch entry.event {
            case .change: "change"
            case .registered: "registered"
            case .reset: "reset"
            case .removed: "removed"
            }
        }
        #expect(kinds == ["registered", "change", "removed", "reset", "change"])
        #expect(replayed.stores == [StoreID("app/memory")!: ["name": "Grace"]])
    }

    @Test func mutedRecordingsReplayToTheMaskedState() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let hub = recordedHub()
        let store = try addRecordedStore(
            hub, "a", root: ["user": ["name": "Ada", "card": "card-4242"], "sessions": []])
        let hidden = try addRecordedStore(hub, "hidden", root: ["x": 1])
        let rules = try MuteRules(patterns: ["user.card", "sessions[*].token"], stores: [hidden.id])
        let recorder = try HubRecorder(hub: hub, to: folder.file("muted.kslog"), options: .init(mute: rules))
        store.set("user.card", "card-5555")
        store.insert("sessions[0]", ["id": 1, "token": "t1"])
        store.insert("sessions[0]", ["id": 2, "token": "t2"])
        store.set("sessions[1].token", "t1b")
        store.merge("user", ["card": "card-6666", "name": "Grace"])
        hidden.set("x", 2)
        recorder.stop()
        let url = folder.file("muted.kslog")
        let replayed = try WrittenRecording(contentsOf: url)
        #expect(replayed.stores == [store.id: rules.mask(root: store.snapshot())])
        let text = try String(contentsOf: url, encoding: .utf8)
        // Distinctive texts: bare digits would be found in the lines' times now and then.
        for secret in ["card-4242", "card-5555", "card-6666", "\"t1\"", "t1b", "\"t2\""] {
            #expect(!text.contains(secret), "\(secret)")
        }
        #expect(replayed.header.extras["mutedStores"] == ["scenario:hidden/memory"])
    }

    /// Secret mirror stores hold the redaction placeholder, never the secret (docs/preferences.md): the recorder
    /// writes what the store holds, so a redacted value stays redacted in the file, before and after an edit.
    @Test func redactedValuesStayRedacted() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let hub = recordedHub()
        let secrets = try addRecordedStore(hub, "secrets", root: ["token": "•••• (51)"])
        let recorder = try HubRecorder(hub: hub, to: folder.file("secrets.kslog"))
        secrets.set("token", "•••• (64)")
        recorder.stop()
        let replayed = try WrittenRecording(contentsOf: folder.file("secrets.kslog"))
        #expect(replayed.header.stores.first?.root == ["token": "•••• (51)"])
        #expect(replayed.stores[secrets.id] == ["token": "•••• (64)"])
    }

    @Test func theStatusSaysWhereTheRecordingStands() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let hub = recordedHub()
        let store = try addRecordedStore(hub, "a", root: ["n": 0])
        let recorder = try HubRecorder(
            hub: hub, to: folder.file("status.kslog"), options: .init(pollInterval: .seconds(3600)))
        store.set("n", 1)
        let running = recorder.catchUp()
        #expect(running.state == .recording && running.events == 1 && running.endedAt == nil)
        let json = running.jsonObject(id: "recordings/status.kslog")
        #expect(json["id"] == "recordings/status.kslog" && json["state"] == "recording" && json["endReason"] == .null)
        let ended = recorder.stop()
        #expect(ended.jsonObject(id: "x")["endReason"] == "stopped")
        #expect(ended.endedAt != nil && ended.lastLiveSeq == hub.lastSeq)
    }
}

/// A flag another thread reads to know when to stop.
final class RecorderStopFlag: Sendable {
    private let flag = Mutex(false)
    var stopped: Bool { flag.withLock { $0 } }
    func stop() { flag.withLock { $0 = true } }
}
