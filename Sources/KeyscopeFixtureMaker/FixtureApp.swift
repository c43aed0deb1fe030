import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopePreferences
import KeyscopeSecrets
import KeyscopeServer
import Logging

/// A small settings app that `scripts/record_fixtures.py` records for `fixtures/recordings/preferences-session.kslog`:
/// preferences in a UserDefaults suite and tokens in a secret store (both scanned and mirrored by a
/// ``PreferencesRepository``, edited over `/api/preferences`), and a profile that the app keeps in a Keyscope store
/// made by a ``DefaultStoreFactory``, whose data format moves to a new major version during the session: the
/// factory drops the old data (a `reset` event), as a real migration would.
///
/// Everything goes through the package's public API; the inspector is the real ``InspectorServer``.
final class FixtureApp: Sendable {
    static let suite = "com.keyscope.fixture.settings"
    static let service = "com.keyscope.fixture.api"
    static let appID = "com.keyscope.fixture"
    static let profileSuite = "com.keyscope.fixture.profile"

    let factory: DefaultStoreFactory
    let profile: KeyValueStore
    let preferences: PreferencesRepository
    let server: InspectorServer

    /// Seeds the suite, the secrets and the profile (when missing), scans them and starts the inspector on
    /// `options` (its port, token and name).
    init(dataDirectory: URL, options: ServerOptions) throws {
        Self.seedSettings()
        let secrets = try FileSecretStore(
            directory: dataDirectory.appendingPathComponent("secrets", isDirectory: true), appID: Self.appID)
        for (account, token) in [("token", "ks_live_4f1c9a27d3e8b650"), ("refreshToken", "ks_refresh_9b2e7d41a0c3")]
        where try secrets.read(service: Self.service, account: account) == nil {
            try secrets.write(Data(token.utf8), service: Self.service, account: account)
        }
        factory = DefaultStoreFactory(version: "1.3.0")
        profile = factory.store(scope: .app, storage: .userPrefs(suite: Self.profileSuite))
        if profile.get("displayName") == nil {
            try profile.transaction { tx in
                try tx.set("displayName", "Ada Lovelace")
                try tx.set("layout", ["sidebar": "left", "density": "comfortable"])
                try tx.set("pinned", ["inbox", "reports"])
            }
        }
        var configuration = PreferencesConfiguration()
        configuration.includeSuites = [Self.suite]
        configuration.includeServices = [Self.service]
        preferences = try PreferencesRepository(configuration: configuration, secrets: secrets)
        server = Inspector.makeServer(
            options: options, hubOptions: HubOptions(deliveriesRefresh: nil),
            features: [PreferencesFeature(preferences)], logger: Logger(label: "keyscope.fixture-maker"))
        try server.start()
    }

    /// One key of each common type, as an app's first launch would write them.
    private static func seedSettings() {
        guard let defaults = UserDefaults(suiteName: suite) else { return }
        defaults.synchronize()
        guard defaults.object(forKey: "theme") == nil else { return }
        defaults.set("light", forKey: "theme")
        defaults.set(14, forKey: "fontSize")
        defaults.set(0.8, forKey: "volume")
        defaults.set(false, forKey: "onboardingDone")
        defaults.set(["tea", "kettle"], forKey: "recentSearches")
        defaults.synchronize()
    }

    /// Runs one command from the script; returns the line to answer.
    ///
    /// - `app-set KEY JSON`: the app itself writes a preference (the next refresh shows it);
    /// - `profile-set PATH JSON`: the app writes its profile store;
    /// - `migrate VERSION`: the app's data format changes to VERSION (a major change drops the profile's data);
    /// - `subscribe PATH LABEL`: a view starts listening to the profile at PATH.
    func run(_ line: String) async -> String {
        let words = line.split(separator: " ", maxSplits: 2).map(String.init)
        do {
            switch (words.first, words.count) {
            case ("app-set", 3):
                guard let defaults = UserDefaults(suiteName: Self.suite) else { return "error: no suite" }
                defaults.set(try Self.plist(JanssonCodec.decode(Array(words[2].utf8))), forKey: words[1])
                defaults.synchronize()
            case ("profile-set", 3):
                try profile.apply(.set(StoreKeyPath(parsing: words[1]), JanssonCodec.decode(Array(words[2].utf8))))
            case ("migrate", 2):
                guard let version = SemanticVersion(parsing: words[1]) else { return "error: not a version" }
                factory.updateVersion(version)
            case ("subscribe", 3):
                let values = profile.values(for: try StoreKeyPath(parsing: words[1]), label: words[2])
                Task { for await _ in values {} }
            default:
                return "error: unknown command \(line)"
            }
            return "ok"
        } catch {
            return "error: \(error)"
        }
    }

    /// A JSON value as a property list value.
    private static func plist(_ value: StoreValue) throws -> Any {
        switch value {
        case .string(let text): return text
        case .integer(let number): return Int(number)
        case .number(let number): return number
        case .bool(let flag): return flag
        case .array(let elements): return try elements.map(plist)
        case .object(let members): return try members.mapValues(plist)
        default: throw FixtureError("\(value) has no property list form")
        }
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
