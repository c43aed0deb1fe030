import Foundation
import InMemoryLogging
import KeyscopePreferences
import KeyscopeSecrets
import Logging
import Synchronization
import Testing

@Suite struct PreferencesMonitorTests {
    @Test func theLoggingMonitorWritesThroughSwiftLog() throws {
        let logs = InMemoryLogHandler()
        let monitor = LoggingPreferencesMonitor(logger: WrapperTesting.logger(logs), messageLevel: .info)
        let suite = try WrapperTesting.Suite()
        suite.defaults.set("{", forKey: "layout")
        @UserDefaultValue("layout", suite: suite.name, monitors: [monitor]) var layout = SampleLayout()
        _ = layout
        layout = SampleLayout(columns: 4)

        let entries = logs.entries
        let error = try #require(entries.first { $0.level == .error })
        #expect("\(error.message)".hasPrefix("readFailed userDefaults/\(suite.name)/layout: "))
        #expect(error.metadata["key"] == "layout")
        #expect(error.metadata["container"] == "\(suite.name)")
        #expect(error.metadata["source"] == "userDefaults")
        #expect(error.metadata["kind"] == "readFailed")
        let written = try #require(entries.first { $0.level == .info })
        #expect(written.metadata["kind"] == "written")
    }

    @Test func messagesUseTheirOwnLevel() {
        let logs = InMemoryLogHandler()
        let monitor = LoggingPreferencesMonitor(logger: WrapperTesting.logger(logs))
        let event = PreferenceEvent(
            source: .secrets, container: "svc", key: "token", kind: .removed, detail: "set to its default")
        monitor.message(event)
        monitor.error(event)
        #expect(logs.entries.map(\.level) == [.debug, .error])
        #expect(event.description == "removed secrets/svc/token: set to its default")
    }

    /// No event about a secret, and so no log line, holds the secret's bytes: not when they do not decode, not when
    /// the store fails, not when a write fails.
    @Test func keychainEventsNeverHoldTheSecret() throws {
        let secret = "hunter2-very-secret-token"
        let logs = InMemoryLogHandler()
        let monitor = LoggingPreferencesMonitor(logger: WrapperTesting.logger(logs), messageLevel: .trace)
        let store = WrapperTesting.MemorySecretStore()
        let service = "monitor.\(UUID().uuidString)"

        // Bytes that are neither JSON of the type nor usable as text of it.
        try store.write(Data(secret.utf8), service: service, account: "pin")
        try store.write(
            Data(#"{"user": "ann", "token": 12, "x": "\#(secret)"}"#.utf8), service: service, account: "cred")
        try store.write(Data("[\"\(secret)\"".utf8), service: service, account: "list")
        @KeychainValue("pin", defaultValue: 0, service: service, store: store, monitors: [monitor]) var pin: Int
        @KeychainValue("cred", defaultValue: nil, service: service, store: store, monitors: [monitor])
        var cred: SampleCredentials?
        @KeychainValue("list", defaultValue: [], service: service, store: store, monitors: [monitor]) var list: [String]
        #expect(pin == 0)
        #expect(cred == nil)
        #expect(list == [])

        // A write that cannot be encoded, and one the store refuses.
        @KeychainValue("scale", defaultValue: 1.0, service: service, store: store, monitors: [monitor]) var scale:
            Double
        scale = .nan
        store.state.withLock { $0.failWrites = true }
        cred = SampleCredentials(user: "ann", token: secret)

        let lines = logs.entries
        #expect(lines.filter { $0.level == .error }.count == 5)
        for line in lines {
            let text = "\(line.message) \(line.metadata)"
            #expect(!text.contains(secret), "\(text)")
            #expect(!text.contains("hunter2"), "\(text)")
        }
    }

    /// The only test that configures the process-wide monitors.
    @Test func theProcessWideMonitorsAreConfiguredOnce() throws {
        let recorder = WrapperTesting.RecordingMonitor()
        let first = PreferencesMonitoring.configure(recorder)
        #expect(!PreferencesMonitoring.configure(WrapperTesting.RecordingMonitor()), "later calls are ignored")
        #expect(PreferencesMonitoring.isConfigured)
        guard first else { return }  // configured by someone else first: nothing more to check here
        #expect(PreferencesMonitoring.monitors.count == 1)

        let suite = try WrapperTesting.Suite()
        suite.defaults.set("not json", forKey: "count")
        @UserDefaultValue("count", defaultValue: 0, suite: suite.name) var count: Int
        #expect(count == 0)
        #expect(recorder.errors.contains { $0.key == "count" && $0.container == suite.name })
    }
}
