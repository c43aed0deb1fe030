import Foundation
import InMemoryLogging
import KeyscopePreferences
import Logging
import Synchronization
import Testing

@Suite struct StatusTrackerTests {
    /// A provider whose answer the test sets.
    final class Answer: Sendable {
        private let value: Mutex<String>
        init(_ value: String) { self.value = Mutex(value) }
        func set(_ newValue: String) { value.withLock { $0 = newValue } }
        var get: String { value.withLock { $0 } }
        var provider: @Sendable () -> String { { [self] in self.get } }
    }

    @Test func startCreatesTheMissingKeys() throws {
        let suite = try WrapperTesting.Suite()
        let writable = Answer("yes")
        let online = Answer("no")
        let tracker = StatusTracker(
            suite: suite.name,
            statuses: [WatchedStatus("DataDirWritable", provider: writable.provider)],
            logger: WrapperTesting.logger(InMemoryLogHandler()))
        tracker.add("Online", provider: online.provider)
        #expect(tracker.names == ["DataDirWritable", "Online"])
        #expect(tracker.summary().allSatisfy { $0.value == nil && $0.stored == nil && !$0.inSync })

        tracker.start()
        defer { tracker.stop() }
        let file = try suite.fileContents()
        #expect(file["p_DataDirWritable"] as? String == "yes")
        #expect(file["p_Online"] as? String == "no")
        #expect(tracker.writeCount == 2)
        #expect(tracker.history(of: "Online").map(\.before) == [nil])
        #expect(tracker.history(of: "Online").map(\.after) == ["no"])
    }

    @Test func onlyRealChangesAreWrittenAndLogged() throws {
        let suite = try WrapperTesting.Suite()
        suite.defaults.set("yes", forKey: "p_Ready")  // from an earlier run, still right: no write
        let logs = InMemoryLogHandler()
        let ready = Answer("yes")
        let mode = Answer("normal")
        let tracker = StatusTracker(
            suite: suite.name, statuses: [WatchedStatus("Ready", provider: ready.provider)],
            logger: WrapperTesting.logger(logs))
        tracker.add("Mode", provider: mode.provider)
        tracker.start()
        defer { tracker.stop() }
        #expect(tracker.writeCount == 1, "only the missing key was written")

        tracker.refresh()
        tracker.refresh()
        #expect(tracker.writeCount == 1)

        ready.set("no")
        tracker.refresh()
        tracker.refresh()
        #expect(tracker.writeCount == 2)
        #expect(try suite.fileContents()["p_Ready"] as? String == "no")
        let history = tracker.history(of: "Ready")
        #expect(history.count == 1)
        #expect(history.first?.before == "yes")
        #expect(history.first?.after == "no")

        let lines = logs.entries.filter { $0.level == .info }.map { "\($0.message)" }
        #expect(lines == ["p_Mode: (none) → normal", "p_Ready: yes → no"])
        let line = try #require(logs.entries.last)
        #expect(line.metadata["before"] == "yes")
        #expect(line.metadata["after"] == "no")
        #expect(line.metadata["suite"] == "\(suite.name)")
    }

    @Test func theSummaryShowsAKeyChangedBehindTheTrackersBack() throws {
        let suite = try WrapperTesting.Suite()
        let ready = Answer("yes")
        let tracker = StatusTracker(
            suite: suite.name, statuses: [WatchedStatus("Ready", provider: ready.provider)],
            logger: WrapperTesting.logger(InMemoryLogHandler()))
        tracker.start()
        defer { tracker.stop() }
        var summary = try #require(tracker.summary().first)
        #expect(summary.name == "Ready")
        #expect(summary.key == "p_Ready")
        #expect(summary.value == "yes")
        #expect(summary.stored == "yes")
        #expect(summary.inSync)
        #expect(summary.checked != nil)

        let other = try suite.otherInstance()
        other.set("tampered", forKey: "p_Ready")
        other.synchronize()
        summary = try #require(tracker.summary().first)
        #expect(summary.value == "yes")
        #expect(summary.stored == "tampered")
        #expect(!summary.inSync)

        tracker.refresh()  // repairs the key: a real change of what it holds
        summary = try #require(tracker.summary().first)
        #expect(summary.inSync)
        #expect(summary.history.map(\.before) == [nil, "tampered"])
        #expect(tracker.writeCount == 2)

        other.removeObject(forKey: "p_Ready")
        #expect(tracker.summary().first?.stored == nil)
        #expect(tracker.summary().first?.inSync == false)
    }

    @Test func theTimerRefreshes() throws {
        let suite = try WrapperTesting.Suite()
        let ready = Answer("no")
        let tracker = StatusTracker(
            suite: suite.name, statuses: [WatchedStatus("Ready", provider: ready.provider)],
            refreshInterval: .milliseconds(20), logger: WrapperTesting.logger(InMemoryLogHandler()))
        tracker.start()
        defer { tracker.stop() }
        ready.set("yes")
        #expect(WrapperTesting.eventually { tracker.writeCount == 2 })
        #expect(suite.defaults.string(forKey: "p_Ready") == "yes")
        tracker.stop()
        ready.set("later")
        Thread.sleep(forTimeInterval: 0.1)
        #expect(suite.defaults.string(forKey: "p_Ready") == "yes", "no refresh once stopped")
    }

    @Test func theHistoryIsBounded() throws {
        let suite = try WrapperTesting.Suite()
        let step = Answer("0")
        let tracker = StatusTracker(
            suite: suite.name, statuses: [WatchedStatus("Step", provider: step.provider)], historyLimit: 3,
            logger: WrapperTesting.logger(InMemoryLogHandler()))
        tracker.start()
        for value in 1...5 {
            step.set("\(value)")
            tracker.refresh()
        }
        #expect(tracker.history(of: "Step").map(\.after) == ["3", "4", "5"])
        #expect(tracker.history(of: "Step").map(\.before) == ["2", "3", "4"])
        #expect(tracker.writeCount == 6)
        #expect(tracker.history(of: "Unknown").isEmpty)
    }
}
