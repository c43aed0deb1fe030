import Foundation
import InMemoryLogging
import KeyscopePreferences
import KeyscopeSecrets
import Logging
import Synchronization
import Testing

/// Test support for the wrapper, monitor, status and watch-rule tests (namespaced: other files of this target have
/// their own helpers).
enum WrapperTesting {
    /// The folder where corelibs keeps suites: `$XDG_CONFIG_HOME`, else `$HOME/.config`, both as they were when the
    /// process started (CoreFoundation copies them at load time, so setting them from inside the process is too
    /// late). Found by writing a probe suite and looking for its file.
    static let preferencesFolder: URL? = {
        let probe = "keyscope-wrapper-tests.probe.\(UUID().uuidString)"
        guard let defaults = UserDefaults(suiteName: probe) else { return nil }
        defaults.set("x", forKey: "probe")
        defaults.synchronize()
        defer { defaults.removePersistentDomain(forName: probe) }
        var candidates: [String] = []
        for environment in [startEnvironment(), ProcessInfo.processInfo.environment] {
            if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty { candidates.append(xdg) }
            if let home = environment["HOME"], !home.isEmpty { candidates.append(home + "/.config") }
        }
        candidates.append(FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config").path)
        for folder in candidates where FileManager.default.fileExists(atPath: "\(folder)/\(probe).plist") {
            try? FileManager.default.removeItem(atPath: "\(folder)/\(probe).plist")
            return URL(fileURLWithPath: folder, isDirectory: true)
        }
        return nil
    }()

    /// The environment the process was started with (`/proc/self/environ`), which is what CoreFoundation saw.
    private static func startEnvironment() -> [String: String] {
        guard let data = FileManager.default.contents(atPath: "/proc/self/environ") else { return [:] }
        var environment: [String: String] = [:]
        for entry in data.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            guard let equals = text.firstIndex(of: "=") else { continue }
            environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        return environment
    }

    /// A fresh suite on disk with a unique name, removed (domain and file) when released.
    final class Suite {
        let name = "keyscope-wrapper-tests.\(UUID().uuidString)"
        let defaults: UserDefaults

        init() throws {
            defaults = try #require(UserDefaults(suiteName: name))
        }

        deinit {
            defaults.removePersistentDomain(forName: name)
            if let fileURL { try? FileManager.default.removeItem(at: fileURL) }
        }

        /// The suite's plist file.
        var fileURL: URL? { WrapperTesting.preferencesFolder?.appendingPathComponent("\(name).plist") }

        /// What the plist file on disk holds (empty when there is no file).
        func fileContents() throws -> [String: Any] {
            let url = try #require(fileURL, "corelibs' preferences folder was not found")
            guard let data = FileManager.default.contents(atPath: url.path) else { return [:] }
            return try #require(PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        }

        /// Another instance of the same suite: "someone else" writing to it.
        func otherInstance() throws -> UserDefaults {
            try #require(UserDefaults(suiteName: name))
        }
    }

    /// A monitor that keeps every event it hears.
    final class RecordingMonitor: PreferencesMonitor {
        private let events = Mutex<[(isError: Bool, event: PreferenceEvent)]>([])

        func error(_ event: PreferenceEvent) { events.withLock { $0.append((true, event)) } }
        func message(_ event: PreferenceEvent) { events.withLock { $0.append((false, event)) } }

        var errors: [PreferenceEvent] { events.withLock { $0.filter(\.isError).map(\.event) } }
        var messages: [PreferenceEvent] { events.withLock { $0.filter { !$0.isError }.map(\.event) } }
    }

    /// A secret store in memory that counts its calls and fails on demand.
    final class MemorySecretStore: SecretStore {
        struct State {
            var items: [String: [String: Data]] = [:]
            var reads = 0
            var writes = 0
            var deletes = 0
            var failReads = false
            var failWrites = false
        }

        let state = Mutex(State())
        var backendName: String { "memory" }
        var appID: String { "com.keyscope.tests" }

        func services() throws(SecretStoreError) -> [String] { state.withLock { $0.items.keys.sorted() } }

        func items(service: String) throws(SecretStoreError) -> [SecretItem] {
            state.withLock { state in
                (state.items[service] ?? [:]).sorted { $0.key < $1.key }.map {
                    SecretItem(service: service, account: $0.key, value: $0.value)
                }
            }
        }

        func read(service: String, account: String) throws(SecretStoreError) -> Data? {
            let (fail, value) = state.withLock { state in
                state.reads += 1
                return (state.failReads, state.items[service]?[account])
            }
            if fail { throw SecretStoreError(code: .unavailable, message: "the keyring is locked") }
            return value
        }

        func write(_ value: Data, service: String, account: String) throws(SecretStoreError) {
            let fail = state.withLock { state in
                if !state.failWrites {
                    state.writes += 1
                    state.items[service, default: [:]][account] = value
                }
                return state.failWrites
            }
            if fail { throw SecretStoreError(code: .io, message: "the disk is full") }
        }

        @discardableResult
        func delete(service: String, account: String) throws(SecretStoreError) -> Bool {
            let fail = state.withLock { $0.failWrites }
            if fail { throw SecretStoreError(code: .io, message: "the disk is full") }
            return state.withLock { state in
                state.deletes += 1
                return state.items[service]?.removeValue(forKey: account) != nil
            }
        }

        func item(_ service: String, _ account: String) -> Data? { state.withLock { $0.items[service]?[account] } }
    }

    /// A thread-safe list of what a subscriber received.
    final class Received<Value: Sendable>: Sendable {
        private let items = Mutex<[Value]>([])
        func append(_ value: Value) { items.withLock { $0.append(value) } }
        var all: [Value] { items.withLock { $0 } }
    }

    /// A logger whose lines land in `handler`, every level.
    static func logger(_ handler: InMemoryLogHandler, label: String = "test") -> Logger {
        var logger = Logger(label: label, factory: { _ in handler })
        logger.logLevel = .trace
        return logger
    }

    /// Polls `condition` every 10 ms until it holds or `timeout` passes; whether it held.
    static func eventually(timeout: Duration = .seconds(10), _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return try condition()
    }
}

/// Values of the kinds the wrappers must round-trip.
enum SampleTheme: String, Codable, Sendable, Equatable {
    case light, dark, sepia
}

struct SampleLayout: Codable, Sendable, Equatable {
    var columns = 2
    var compact = false
    var tags: [String] = []
}

struct SampleCredentials: Codable, Sendable, Equatable {
    var user: String
    var token: String
}
