import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopePreferences
import KeyscopeProtocol
import KeyscopeSecrets
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The demo shop's preferences, secrets and watches: what `keyscope serve --demo` shows in the Preferences and
/// Watches tabs unless `--no-preferences`.
///
/// The demo is an app like any other: it keeps settings in a UserDefaults suite (`com.keyscope.demo`, seeded with one
/// key of each type when missing), API tokens in a secret store (`com.keyscope.demo.api`), and three statuses mirrored
/// into `com.keyscope.demo.status` (`p_DataDirWritable`, `p_PortFree`, `p_DebugFlag`). Scanning finds them with no
/// registration, as it would find any other suite of the process.
final class DemoPreferences: Sendable {
    static let suite = "com.keyscope.demo"
    static let statusSuite = "com.keyscope.demo.status"
    static let service = "com.keyscope.demo.api"
    static let appID = "com.keyscope.demo"

    let repository: PreferencesRepository
    let watches: Watches

    private init(repository: PreferencesRepository, watches: Watches) {
        self.repository = repository
        self.watches = watches
    }

    /// Seeds the demo's suites and secrets, scans them and attaches both endpoints to `hub` (not started yet: the
    /// mirror stores are registered, so the hub picks them up when it starts). Call ``start()`` once it runs.
    static func open(options: PreferencesOptions, hub: InspectorHub, stateDirectory: URL) throws -> DemoPreferences {
        let environment = ProcessInfo.processInfo.environment
        seedSettings()
        let secrets = try openSecrets(options.secrets, environment: environment)
        try seedSecrets(in: secrets)
        let repository = try PreferencesRepository(
            configuration: options.configuration, secrets: secrets, registry: hub.registry)
        let tracker = StatusTracker(suite: statusSuite, refreshInterval: .seconds(5))
        let port = options.statusPort
        tracker.add("DataDirWritable") { canWrite(in: stateDirectory) ? "yes" : "no" }
        tracker.add("PortFree") { isFree(port: port) ? "yes" : "no" }
        tracker.add("DebugFlag") {
            let flag = ProcessInfo.processInfo.environment["KEYSCOPE_DEMO_DEBUG"] ?? ""
            return flag.isEmpty || flag == "0" ? "no" : "yes"
        }
        let settings = StoreID(scope: .app, storage: .userPrefs(suite: suite))
        let statuses = StoreID(scope: .app, storage: .userPrefs(suite: statusSuite))
        let rules = WatchRules(
            hub: hub,
            rules: [
                WatchRule(
                    id: "theme-allowed", label: "theme is light, dark or system", store: settings, path: "theme",
                    allowed: ["light", "dark", "system"]),
                WatchRule(
                    id: "onboarding-done", label: "onboarding stays done", store: settings, path: "onboardingDone",
                    expected: true),
                WatchRule(
                    id: "data-dir-writable", label: "the data directory is writable", store: statuses,
                    path: "p_DataDirWritable", allowed: ["yes", .null]),
            ])
        return DemoPreferences(repository: repository, watches: Watches(statuses: tracker, rules: rules))
    }

    /// What the inspector serves of them: the Preferences and Watches panels and their requests.
    var features: [any InspectorFeature] { [PreferencesFeature(repository), WatchesFeature(watches)] }

    /// Starts the statuses (their keys are created now), the rules, and a rescan every second so that what the app
    /// (or anyone) writes to its suites shows up in the mirrors and the log.
    func start() {
        watches.start()
        try? repository.refresh()
        repository.startAutoRefresh(every: .seconds(1))
    }

    func stop() {
        repository.stopAutoRefresh()  // first, so no scan runs while the watches stop
        watches.stop()
        repository.stop()
    }

    // MARK: Seeding

    /// One key of each type, written only when missing so that edits survive a restart.
    private static func seedSettings() {
        guard let defaults = UserDefaults(suiteName: suite) else { return }
        defaults.synchronize()
        let seeds: [(String, Any)] = [
            ("theme", "dark"), ("fontSize", 14), ("volume", 0.8), ("onboardingDone", true),
            ("lastOpened", Date()), ("recentSearches", ["running shoes", "wool socks"]),
        ]
        for (key, value) in seeds where defaults.object(forKey: key) == nil { defaults.set(value, forKey: key) }
        defaults.synchronize()
    }

    private static func openSecrets(_ backend: SecretsBackendOption, environment: [String: String]) throws
        -> any SecretStore
    {
        let directory = KeyscopeStateFolder.named("secrets", environment: environment)
        switch backend {
        case .file: return try FileSecretStore(directory: directory, appID: appID)
        case .secretService:
            #if canImport(Darwin)
            return try SecretStores.default(appID: appID, directory: directory)
            #else
            return try SecretServiceStore(appID: appID)
            #endif
        case .auto: return try SecretStores.default(appID: appID, directory: directory)
        }
    }

    private static func seedSecrets(in store: any SecretStore) throws {
        for account in ["token", "refreshToken"] where try store.read(service: service, account: account) == nil {
            let bytes = (0..<24).map { _ in UInt8.random(in: 0...255) }
            let token = "ks_" + bytes.map { String(format: "%02x", $0) }.joined()
            try store.write(Data(token.utf8), service: service, account: account)
        }
    }

    // MARK: Statuses

    /// Whether a file can really be created in `directory` (permissions alone do not say it for root).
    private static func canWrite(in directory: URL) -> Bool {
        let probe = directory.appendingPathComponent(".keyscope-probe-\(getpid())")
        guard FileManager.default.createFile(atPath: probe.path, contents: Data()) else { return false }
        try? FileManager.default.removeItem(at: probe)
        return true
    }

    /// Whether nothing listens on 127.0.0.1:`port` (binding it succeeds).
    private static func isFree(port: Int) -> Bool {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return bound == 0
    }
}
