import Foundation
import KeyscopeCore
import Testing

/// StoreLimits and the storages: a value at the limit is saved and loaded again by the file and UserDefaults
/// storages, and saved data deeper than a store may hold is refused at load, left untouched, never a crash.
@Suite struct LimitStorageTests {
    let limit = StoreLimits.maxDepth

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("keyscope-limits-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The longest path (512 segments), a scalar at its end, and beside it a value 511 levels deep under one key.
    func writeAtTheLimit(_ store: KeyValueStore) throws {
        try store.apply(.set(LimitTests.keys(StoreLimits.maxPathSegments), "end"))
        try store.apply(.set("deep", LimitTests.nested(limit - 1)))
        #expect(store.snapshot().depth() == limit)
        store.flush()
    }

    @Test func aFileStoreSavesAndLoadsAValueAtTheLimit() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("state.json")
        let written: StoreValue
        do {
            let store = DefaultStoreFactory(registry: StoreRegistry()).store(storage: .file(url: url))
            try writeAtTheLimit(store)
            written = store.snapshot()
        }
        let again = DefaultStoreFactory(registry: StoreRegistry()).store(storage: .file(url: url))
        #expect(again.snapshot() == written)
    }

    @Test func aUserDefaultsStoreSavesAndLoadsAValueAtTheLimit() throws {
        let suite = "keyscope-limit-tests-\(UUID())"
        defer { Self.removeSuite(suite) }
        let written: StoreValue
        do {
            let store = DefaultStoreFactory(registry: StoreRegistry()).store(storage: .userPrefs(suite: suite))
            try writeAtTheLimit(store)
            written = store.snapshot()
        }
        let again = DefaultStoreFactory(registry: StoreRegistry()).store(storage: .userPrefs(suite: suite))
        #expect(again.snapshot() == written)
        #expect(again.get(LimitTests.keys(StoreLimits.maxPathSegments)) == "end")
    }

    @Test func aSavedFileDeeperThanTheLimitIsRefusedAtLoadAndLeftAlone() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, depth) in [("just-over.json", limit + 1), ("far-over.json", 100_000)] {
            let url = directory.appendingPathComponent(name)
            // The document wraps the root: root level 1 is document level 2.
            let deep =
                #"{"version": "1.0.0", "root": {"d": "# + String(repeating: "[", count: depth - 1)
                + String(repeating: "]", count: depth - 1) + "}}"
            try Data(deep.utf8).write(to: url)
            let store = DefaultStoreFactory(registry: StoreRegistry()).store(storage: .file(url: url))
            #expect(store.snapshot() == .emptyObject, "\(name)")
            store.set("later", 1)  // kept in memory only: the file is for a person to look at
            store.flush()
            #expect(try String(contentsOf: url, encoding: .utf8) == deep, "\(name)")
        }
        // At the limit it loads.
        let url = directory.appendingPathComponent("at-limit.json")
        try Data(
            (#"{"version": "1.0.0", "root": {"d": "# + String(repeating: "[", count: limit - 1)
                + String(repeating: "]", count: limit - 1) + "}}").utf8
        ).write(to: url)
        let store = DefaultStoreFactory(registry: StoreRegistry()).store(storage: .file(url: url))
        #expect(store.snapshot().depth() == limit)
    }

    @Test func aSuiteKeyDeeperThanTheLimitIsRefusedAtLoadAndLeftAlone() throws {
        let suite = "keyscope-limit-tests-\(UUID())"
        defer { Self.removeSuite(suite) }
        do {
            let store = DefaultStoreFactory(registry: StoreRegistry()).store(storage: .userPrefs(suite: suite))
            store.set("d", 1)
            store.flush()
        }
        let defaults = try #require(UserDefaults(suiteName: suite))
        let deep = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)  // 1 + 512 levels
        defaults.set(deep, forKey: "d")
        #expect(defaults.synchronize())
        let store = DefaultStoreFactory(registry: StoreRegistry()).store(storage: .userPrefs(suite: suite))
        #expect(store.snapshot() == .emptyObject)
        store.set("d", 2)
        store.flush()
        #expect(UserDefaults(suiteName: suite)?.string(forKey: "d") == deep)
    }

    /// Removes a suite's domain and its plist file, so that tests leave nothing in the home folder.
    static func removeSuite(_ name: String) {
        UserDefaults(suiteName: name)?.removePersistentDomain(forName: name)
        let config =
            ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config").path
        try? FileManager.default.removeItem(atPath: "\(config)/\(name).plist")
    }
}
