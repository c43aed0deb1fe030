import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopePreferences
import KeyscopeProtocol
import KeyscopeSecrets
import Synchronization
import Testing

/// A temporary preferences folder for one test: the `XDG_CONFIG_HOME` of the `KeyscopeTestChild` processes that
/// write and read its suites as an app would, and the folder the repository under test scans.
final class PrefsSandbox: Sendable {
    let directory: URL
    /// The children's `XDG_CONFIG_HOME`: where their suites are (`<suite>.plist`).
    let config: URL
    let registry = StoreRegistry()
    let child: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("keyscope-prefs-\(UUID().uuidString)", isDirectory: true)
        config = directory.appendingPathComponent("config", isDirectory: true)
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        child = try PrefsChild.locate()
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var scanner: UserDefaultsScanner { UserDefaultsScanner(directory: config) }

    /// A repository of this folder (and of `secrets`), its mirrors in this sandbox's registry.
    func repository(
        _ configuration: PreferencesConfiguration = PreferencesConfiguration(), secrets: (any SecretStore)? = nil
    ) throws -> PreferencesRepository {
        try PreferencesRepository(
            configuration: configuration, userDefaults: scanner, secrets: secrets, registry: registry)
    }

    /// A started hub on this sandbox's registry with `repository` attached.
    func hub(_ repository: PreferencesRepository) -> InspectorHub {
        let hub = InspectorHub(registry: registry)
        hub.preferencesFeature.endpoint = repository
        hub.start()
        return hub
    }

    // MARK: The separate process

    /// Runs the child with this sandbox's `HOME` and `XDG_CONFIG_HOME`; requires exit 0 and returns its lines.
    @discardableResult
    func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let outcome = try PrefsChild.run(
            child, arguments,
            environment: [
                "HOME": directory.path, "XDG_CONFIG_HOME": config.path,
            ])
        try #require(outcome.status == 0, "\(arguments): \(outcome)", sourceLocation: sourceLocation)
        return outcome.stdout.split(separator: "\n").map(String.init)
    }

    /// Sets `key` of `suite` in a separate process (`json` as DefaultsCommand.swift reads it).
    func set(_ suite: String, _ key: String, _ json: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        try run(["defaults-set", suite, key, json], sourceLocation: sourceLocation)
    }

    func remove(_ suite: String, _ key: String) throws {
        try run(["defaults-remove", suite, key])
    }

    /// What a separate process reads for `key` (JSON as DefaultsCommand.swift prints it), or `"missing"`.
    func get(_ suite: String, _ key: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try run(["defaults-get", suite, key], sourceLocation: sourceLocation).first ?? ""
    }

    /// The whole suite as a separate process reads it.
    func dump(_ suite: String) throws -> StoreValue {
        try StoreValue(jsonText: run(["defaults-dump", suite]).first ?? "{}")
    }

    /// The mirror store of `suite`.
    func mirror(_ suite: String) -> (any Store)? {
        registry.store(StoreID(scope: .app, storage: .userPrefs(suite: suite)))
    }

    func secretsMirror(_ service: String) -> (any Store)? {
        registry.store(StoreID(scope: .app, storage: .secrets(service: service)))
    }

    /// Every change the registry's stores make from now on, for as long as the recorder lives.
    func recordChanges() -> ChangeRecorder { ChangeRecorder(registry) }
}

/// The changes a registry's stores made since it was created.
final class ChangeRecorder: Sendable {
    private let changes = Mutex<[StoreChange]>([])
    private let token = Mutex<ObservationToken?>(nil)

    init(_ registry: StoreRegistry) {
        let observation = registry.observe { [weak self] activity in
            if case .changed(let change) = activity { self?.changes.withLock { $0.append(change) } }
        }
        token.withLock { $0 = observation }
    }

    var all: [StoreChange] { changes.withLock { $0 } }

    func of(_ id: StoreID) -> [StoreChange] { all.filter { $0.storeID == id } }
}

/// `KeyscopeTestChild`, found the way KeyscopeTesting's ChildProcess finds it (this target does not depend on
/// KeyscopeTesting): `$KEYSCOPE_BIN_DIR`, then the directory of the test bundle and its parents.
enum PrefsChild {
    struct Outcome: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
    }

    static func locate() throws -> URL {
        var starts: [URL] = []
        if let bin = ProcessInfo.processInfo.environment["KEYSCOPE_BIN_DIR"], !bin.isEmpty {
            starts.append(URL(fileURLWithPath: bin, isDirectory: true))
        }
        starts.append(Bundle.main.bundleURL)
        if let argument0 = CommandLine.arguments.first, !argument0.isEmpty {
            starts.append(URL(fileURLWithPath: argument0).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        for start in starts {
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("KeyscopeTestChild")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw PrefsChildError(message: "no KeyscopeTestChild near \(starts); build with `swift build --build-tests`")
    }

    /// Runs the child to its end (its output is small: read after it exits).
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String]) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }
}

struct PrefsChildError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// A secret store in memory for these tests (the real backends are KeyscopeSecrets' own), which can be told to
/// fail every write.
final class TestSecretStore: SecretStore {
    let backendName = "memory"
    let appID = "com.keyscope.tests"
    private let items = Mutex<[String: [String: Data]]>([:])
    private let failing = Mutex(false)

    init(_ items: [String: [String: Data]] = [:]) {
        self.items.withLock { $0 = items }
    }

    /// Makes every later write and delete fail (`io`).
    func failWrites(_ fail: Bool = true) { failing.withLock { $0 = fail } }

    var all: [String: [String: Data]] { items.withLock { $0 } }

    func services() throws(SecretStoreError) -> [String] {
        items.withLock { $0.filter { !$0.value.isEmpty }.keys.sorted() }
    }

    func items(service: String) throws(SecretStoreError) -> [SecretItem] {
        items.withLock { $0[service] ?? [:] }.sorted { $0.key < $1.key }.map {
            SecretItem(service: service, account: $0.key, value: $0.value)
        }
    }

    func read(service: String, account: String) throws(SecretStoreError) -> Data? {
        items.withLock { $0[service]?[account] }
    }

    func write(_ value: Data, service: String, account: String) throws(SecretStoreError) {
        if failing.withLock({ $0 }) { throw SecretStoreError(code: .io, message: "the test store refuses writes") }
        items.withLock { $0[service, default: [:]][account] = value }
    }

    func delete(service: String, account: String) throws(SecretStoreError) -> Bool {
        if failing.withLock({ $0 }) { throw SecretStoreError(code: .io, message: "the test store refuses writes") }
        return items.withLock { $0[service]?.removeValue(forKey: account) != nil }
    }
}

/// The wire code of the HubError that `body` throws, `nil` when it throws none.
func prefsHubCode(_ body: () throws -> Void) -> HubError.Code? {
    do {
        try body()
        return nil
    } catch let error as HubError {
        #expect(!error.message.isEmpty)
        return error.code
    } catch {
        Issue.record("expected a HubError, got \(error)")
        return nil
    }
}
