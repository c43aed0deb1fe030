import Foundation
import KeyscopeCore
import Testing

/// DefaultStoreFactory: identity per (scope, storage), scenarios, resets, versions and the storages.
@Suite struct FactoryTests {
    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("keyscope-factory-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func oneInstancePerScopeAndStorage() {
        let factory = DefaultStoreFactory(registry: StoreRegistry())
        let a = factory.store(scope: .app, storage: .memory)
        #expect(factory.store(scope: .app, storage: .memory) === a)
        #expect(factory.store(scope: .scenario(id: "x"), storage: .memory) !== a)
        #expect(factory.registry.stores.map(\.id.description) == ["app/memory", "scenario:x/memory"])
    }

    @Test func endingAScenarioDropsItsMemoryStores() throws {
        let registry = StoreRegistry()
        let factory = DefaultStoreFactory(registry: registry)
        let activity = ActivityBox()
        let token = registry.observe { activity.append($0) }
        defer { token.cancel() }
        let checkout = factory.store(scope: .scenario(id: "checkout"), storage: .memory)
        checkout.set("step", 2)
        let app = factory.store(scope: .app, storage: .memory)
        factory.endScenario("checkout")
        #expect(registry.store(checkout.id) == nil)
        #expect(registry.store(app.id) != nil)
        let error = try #require(throws: StoreError.self) { try checkout.apply(.set("step", 3)) }
        #expect(error.code == .storeRemoved)
        let fresh = factory.store(scope: .scenario(id: "checkout"), storage: .memory)
        #expect(fresh !== checkout)
        #expect(fresh.snapshot() == [:])
        #expect(activity.removed == [checkout.id])
    }

    @Test func resetStoresEmptiesTheScopeAsALoggedChange() throws {
        let registry = StoreRegistry()
        let factory = DefaultStoreFactory(registry: registry)
        let scenario = factory.store(scope: .scenario(id: "s"), storage: .memory)
        let app = factory.store(scope: .app, storage: .memory)
        scenario.set("a", 1)
        app.set("a", 1)
        let activity = ActivityBox()
        let token = registry.observe { activity.append($0) }
        defer { token.cancel() }
        factory.resetStores(for: .scenario(id: "s"))
        #expect(scenario.snapshot() == [:])
        #expect(app.snapshot() == ["a": 1])
        #expect(activity.changes.map(\.storeID) == [scenario.id])
    }

    @Test func majorVersionBumpResetsLiveStoresMinorKeepsThem() throws {
        let registry = StoreRegistry()
        let factory = DefaultStoreFactory(version: "1.2.0", registry: registry)
        let store = factory.store(scope: .app, storage: .memory)
        store.set("a", 1)
        let activity = ActivityBox()
        let token = registry.observe { activity.append($0) }
        defer { token.cancel() }
        let heard = Heard<StoreValue?>()
        let c = store.publisher(for: "a").sink { heard.append($0) }
        factory.updateVersion("1.3.0")
        #expect(store.version == "1.3.0")
        #expect(store.get("a") == 1)
        factory.updateVersion("2.0.0")
        #expect(store.version == "2.0.0")
        #expect(store.snapshot() == [:])
        #expect(activity.resets == [store.id])
        #expect(heard.values == [1, nil])
        c.cancel()
    }

    @Test func fileStorageWritesTheDocumentAtomicallyAndReloads() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("state.json")
        do {
            let factory = DefaultStoreFactory(version: "1.0.0", registry: StoreRegistry())
            let store = factory.store(storage: .file(url: url))
            store.set("cart.total", 100)
            store.set("ratio", 3.0)
            store.flush()
        }
        let document = try StoreValue(jsonData: Data(contentsOf: url))
        #expect(document == ["version": "1.0.0", "root": ["cart": ["total": 100], "ratio": 3.0]])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != "state.json" }
        #expect(leftovers.isEmpty)
        let again = DefaultStoreFactory(version: "1.1.0", registry: StoreRegistry()).store(storage: .file(url: url))
        #expect(again.get("ratio") == .number(3.0))
        #expect(again.version == "1.1.0")
        let dropped = DefaultStoreFactory(version: "2.0.0", registry: StoreRegistry()).store(storage: .file(url: url))
        #expect(dropped.snapshot() == [:])
    }

    @Test func unreadableFileIsLeftUntouched() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("state.json")
        try Data("{not json".utf8).write(to: url)
        let store = DefaultStoreFactory(registry: StoreRegistry()).store(storage: .file(url: url))
        store.flush()
        #expect(store.snapshot() == [:])
        #expect(try Data(contentsOf: url) == Data("{not json".utf8))
    }

    @Test func userDefaultsStorageKeepsOneJSONValuePerKeyBesideTheAppsOwnPreferences() throws {
        try withTemporarySuite { suite, defaults in
            defaults.set("dark", forKey: "appTheme")  // written by the app itself, not JSON text
            defaults.set("42", forKey: "appCounter")  // the app's, even though it happens to be JSON text
            do {
                let store = DefaultStoreFactory(registry: StoreRegistry()).store(storage: .userPrefs(suite: suite))
                store.set("theme", ["accent": .color(StoreColor("#FF8800")!)])
                store.set("count", 3)
                store.set("gone", true)
                store.remove("gone")
                let refused = try #require(throws: StoreError.self) { try store.apply(.set(#"["keyscope.store"]"#, 1)) }
                #expect(refused.code == .badRequest)
                #expect(throws: StoreError.self) {
                    try store.transaction { tx in try tx.merge(.root, ["keyscope.store": 1]) }
                }
                store.flush()
            }
            #expect(defaults.string(forKey: "count") == "3")
            #expect(defaults.string(forKey: "theme") == ##"{"accent":{"$color":"#FF8800"}}"##)
            #expect(defaults.object(forKey: "gone") == nil)
            #expect(defaults.string(forKey: "appTheme") == "dark")
            let again = DefaultStoreFactory(registry: StoreRegistry()).store(storage: .userPrefs(suite: suite))
            #expect(again.get("theme.accent") == .color(StoreColor("#FF8800")!))
            #expect(again.get("appTheme") == nil)  // not the store's: left to the app
            #expect(again.get("appCounter") == nil)
            try again.replaceAll(with: [:])
            again.flush()
            #expect(defaults.string(forKey: "appCounter") == "42")
            #expect(defaults.string(forKey: "appTheme") == "dark")
        }
    }

    @Test func aSuiteOwnedByAnotherStoreIsNeverOverwritten() throws {
        try withTemporarySuite { suite, defaults in
            let factory = DefaultStoreFactory(registry: StoreRegistry())
            let owner = factory.store(scope: .scenario(id: "x"), storage: .userPrefs(suite: suite))
            owner.set("who", "owner")
            owner.flush()
            // The app store whose suite name is the same domain: it must not take the owner's data over.
            let intruder = DefaultStoreFactory(registry: StoreRegistry())
                .store(scope: .app, storage: .userPrefs(suite: "\(suite).scenario-x"))
            _ = intruder
            let domainName = "\(suite).scenario-x"
            let raw = try #require(UserDefaults(suiteName: domainName))
            let lookAlike = DefaultStoreFactory(registry: StoreRegistry()).store(storage: .userPrefs(suite: domainName))
            lookAlike.set("who", "intruder")
            lookAlike.flush()
            #expect(raw.string(forKey: "who") == #""owner""#)
            let reread = DefaultStoreFactory(registry: StoreRegistry())
                .store(scope: .scenario(id: "x"), storage: .userPrefs(suite: suite))
            #expect(reread.get("who") == "owner")
            raw.removePersistentDomain(forName: domainName)
            _ = defaults
        }
    }

    /// A unique suite, removed (domain and plist file) afterwards so that tests leave nothing in the home folder.
    func withTemporarySuite(_ body: (String, UserDefaults) throws -> Void) throws {
        let suite = "keyscope-tests-\(UUID())"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer {
            for name in [suite, "\(suite).scenario-x"] {
                UserDefaults(suiteName: name)?.removePersistentDomain(forName: name)
                let config =
                    ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]
                    ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config").path
                try? FileManager.default.removeItem(atPath: "\(config)/\(name).plist")
            }
        }
        try body(suite, defaults)
    }

    @Test func backendStorageRoundTripsThroughTheAdapter() throws {
        let backend = InMemoryBackend()
        do {
            let store = DefaultStoreFactory(registry: StoreRegistry(), backend: backend)
                .store(storage: .backend(namespace: "team"))
            store.set("flags.beta", true)
            store.flush()
        }
        #expect(backend.namespaces == ["team"])
        let again = DefaultStoreFactory(registry: StoreRegistry(), backend: backend).store(
            storage: .backend(namespace: "team"))
        #expect(again.get("flags.beta") == true)
        let scenario = DefaultStoreFactory(registry: StoreRegistry(), backend: backend)
            .store(scope: .scenario(id: "t"), storage: .backend(namespace: "team"))
        #expect(scenario.snapshot() == [:])
    }

    @Test func storeIDsRoundTripThroughText() {
        let ids = [
            "app/memory", "app/userPrefs", "scenario:checkout/userPrefs:com.shop", "app/file:/var/lib/svc/state.json",
            "scenario:x/backend:team",
        ]
        for text in ids {
            #expect(StoreID(text)?.description == text)
        }
        for bad in ["app", "nope/memory", "app/disk", "scenario:/memory", "app/userPrefs:a/b", "app/file:"] {
            #expect(StoreID(bad) == nil)
        }
    }

    @Test func semanticVersionsParseAndOrder() {
        #expect(SemanticVersion(parsing: "1.4.0") == SemanticVersion(1, 4, 0))
        #expect(SemanticVersion(parsing: "1.4") == nil)
        #expect(SemanticVersion(parsing: "1.a.0") == nil)
        #expect(SemanticVersion(parsing: "1.-1.0") == nil)
        #expect(SemanticVersion(parsing: "01.2.3") == SemanticVersion(1, 2, 3))
        #expect(SemanticVersion(1, 10, 0) > SemanticVersion(1, 9, 9))
    }
}

/// Collects registry activity from any thread.
final class ActivityBox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [StoreActivity] = []
    func append(_ activity: StoreActivity) {
        lock.lock()
        items.append(activity)
        lock.unlock()
    }
    var all: [StoreActivity] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
    var changes: [StoreChange] { all.compactMap { if case .changed(let c) = $0 { c } else { nil } } }
    var removed: [StoreID] { all.compactMap { if case .removed(let id) = $0 { id } else { nil } } }
    var resets: [StoreID] { all.compactMap { if case .reset(let id, _) = $0 { id } else { nil } } }
}
