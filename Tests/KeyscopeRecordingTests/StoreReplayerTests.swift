import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeRecording
import KeyscopeTesting
import Synchronization
import Testing

/// Replaying into real stores: registry activity as recorded, one change per line with its txn, store events as
/// registry events, pacing.
@Suite struct StoreReplayerTests {
    private let memory = StoreID("app/memory")!

    /// Activity of `registry` as log events, from now on.
    private final class Heard: Sendable {
        private final class Box: Sendable {
            let events = Mutex<[LogEvent]>([])
        }
        private let box = Box()
        private let token: ObservationToken

        init(_ registry: StoreRegistry) {
            let box = self.box
            token = registry.observe { activity in
                if let event = LogEvent(activity) { box.events.withLock { $0.append(event) } }
            }
        }

        var all: [LogEvent] { box.events.withLock { $0 } }
    }

    @Test func theTornTailFixtureReplaysAsRecorded() async throws {
        let registry = StoreRegistry()
        let heard = Heard(registry)
        let reader = try RecordingReader(contentsOf: Fixtures.url("broken/torn-tail.kslog"))
        let replayer = try StoreReplayer(header: reader.header, registry: registry)
        let cart = try #require(replayer.store(memory))
        var totals = cart.values(for: "cart.total").makeAsyncIterator()
        #expect(await totals.next() == .some(0))
        let summary = try await replayer.play(reader)
        #expect(await totals.next() == .some(45))
        #expect(summary.events == 3)
        #expect(summary.tornTailBytes > 0)
        #expect(replayer.value == replayer.state.value)
        #expect(registry.stores.map(\.id.description) == ["app/memory", "scenario:checkout/memory"])
        let events = heard.all
        #expect(events.count == 4)  // the header's store, then the three events
        guard case .change(let change) = events[1] else {
            Issue.record("expected the transaction's change, got \(events[1])")
            return
        }
        #expect(change.transactionID == UUID(uuidString: "6F1C2D3E-4A5B-4C6D-8E7F-901A2B3C4D5E"))
        #expect(change.patches.count == 2)
        #expect(summary.stateDigest == replayer.state.digest.hex)
    }

    @Test func resetAndRemovedAreRegistryEvents() async throws {
        let lines = [
            TestLog.header, TestLog.setTotal(1, from: 90, to: 100),
            TestLog.event(2, "reset", store: "app/memory", #""version":"2.0.0""#),
            TestLog.event(3, "reset", store: "app/memory", #""version":"2.1.0""#),
            TestLog.event(4, "removed", store: "app/memory"),
        ]
        let registry = StoreRegistry()
        let heard = Heard(registry)
        let reader = try RecordingReader(bytes: TestLog.bytes(lines))
        let replayer = try StoreReplayer(header: reader.header, registry: registry)
        let store = try #require(replayer.store(memory))
        _ = try await replayer.play(reader)
        let events = heard.all
        #expect(events[2] == .reset(memory, version: "2.0.0"))
        // A reset that keeps the major version replaces the store with an empty one.
        #expect(events[3] == .removed(memory))
        #expect(events[4] == .registered(memory, version: "2.1.0", root: [:]))
        #expect(events[5] == .removed(memory))
        #expect(store.snapshot() == [:])
        #expect(registry.stores.isEmpty)
        #expect(replayer.value == [:])
    }

    @Test func aChangeThatDoesNotApplyLeavesTheStoresAlone() async throws {
        let reader = try RecordingReader(
            bytes: TestLog.bytes([
                TestLog.header, TestLog.setTotal(1, from: 90, to: 100), TestLog.setTotal(2, from: 7, to: 8),
            ]))
        let replayer = try StoreReplayer(header: reader.header)
        await #expect(throws: RecordingError.self) { _ = try await replayer.play(reader) }
        #expect(replayer.store(memory)?.snapshot() == ["cart": ["total": 100]])
    }

    @Test func aRegistryThatHasTheStoreAlreadyIsRefused() throws {
        let registry = StoreRegistry()
        try registry.register(KeyValueStore(id: memory))
        let reader = try RecordingReader(bytes: TestLog.bytes([TestLog.header]))
        #expect(throws: RecordingError.self) { try StoreReplayer(header: reader.header, registry: registry) }
        #expect(registry.stores.count == 1)
    }

    @Test func recordedSpeedWaitsForTheRecordedGaps() async throws {
        // Four changes a second apart: 3 s of recording, played at 20 times the speed, takes 150 ms or more.
        let lines = [TestLog.header] + (1...4).map { TestLog.setTotal($0, from: 89 + $0, to: 90 + $0) }
        let reader = try RecordingReader(bytes: TestLog.bytes(lines))
        let replayer = try StoreReplayer(header: reader.header)
        let clock = ContinuousClock()
        let began = clock.now
        let summary = try await replayer.play(reader, pace: .recorded(speed: 20))
        #expect(clock.now - began >= .milliseconds(150))
        #expect(summary.duration == .seconds(3))
        #expect(replayer.value == ["app/memory": ["cart": ["total": 94]]])
    }

    @Test func aCancelledPlayStopsWithoutAnError() async throws {
        // A second between changes at a thousandth of the speed: the replay waits for the second change when the
        // task is cancelled.
        let lines = [TestLog.header] + (1...4).map { TestLog.setTotal($0, from: 89 + $0, to: 90 + $0) }
        let task = Task { () throws -> (events: Int, atEnd: Bool) in
            let reader = try RecordingReader(bytes: TestLog.bytes(lines))
            let replayer = try StoreReplayer(header: reader.header)
            let summary = try await replayer.play(reader, pace: .recorded(speed: 0.001))
            return (summary.events, reader.isAtEnd)
        }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        let (events, atEnd) = try await task.value
        #expect(events == 1)
        #expect(!atEnd)
    }
}
