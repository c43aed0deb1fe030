import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopePreferences
import KeyscopeProtocol
import Testing

/// The repository's own API: items, edits and deletes that a separate process sees, rescans, configuration rules.
@Suite("Repository")
struct RepositoryTests {
    func ref(_ suite: String, _ key: String) -> PreferenceRef {
        PreferenceRef(source: .userDefaults, container: suite, key: key)
    }

    @Test("items: every key of every suite, typed, timestamped with the file's modification time")
    func items() throws {
        let sandbox = try PrefsSandbox()
        for entry in ScanningTests.everyType { try sandbox.set("com.shop", entry.key, entry.json) }
        try sandbox.set("com.other", "theme", #""dark""#)
        let modified = try #require(try sandbox.scanner.read(suite: "com.shop")?.modified)
        let repository = try sandbox.repository()
        let items = repository.items(source: .userDefaults)
        #expect(
            items.map(\.id) == ["userDefaults/com.other/theme"]
                + ScanningTests.everyType.map(\.key).sorted().map {
                    "userDefaults/com.shop/\($0)"
                })
        for entry in ScanningTests.everyType {
            let item = try #require(items.first { $0.ref == ref("com.shop", entry.key) })
            #expect(item.value == entry.value)
            #expect(item.type == entry.type)
            #expect(item.timestamp == modified)
            #expect(item.storeID.description == "app/userPrefs:com.shop")
            #expect(!item.isRedacted && !item.isSystem && item.length == nil)
        }
        #expect(repository.items(source: .secrets).isEmpty)
        #expect(repository.containers().map(\.count) == [1, ScanningTests.everyType.count])
        // The mirror holds the same values, one top-level key each.
        let mirror = try #require(sandbox.mirror("com.shop"))
        #expect(
            mirror.snapshot()
                == .object(Dictionary(uniqueKeysWithValues: ScanningTests.everyType.map { ($0.key, $0.value) })))
    }

    @Test("update and delete reach the suite durably: a separate process reads them afterwards")
    func editRoundTrips() throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("com.shop", "theme", #""light""#)
        try sandbox.set("com.shop", "launched", #"{"$$date": "2026-11-21T10:00:00Z"}"#)
        try sandbox.set("com.shop", "blob", #"{"$$data": "AQID"}"#)
        try sandbox.set("com.shop", "ratio", "0.5")
        try sandbox.set("com.shop", "flags", #"{"beta": false}"#)
        let repository = try sandbox.repository()
        try repository.update(ref("com.shop", "theme"), value: "dark")
        try repository.update(ref("com.shop", "launched"), value: "2027-01-02T03:04:05Z")
        try repository.update(ref("com.shop", "blob"), value: "/wA=")
        try repository.update(ref("com.shop", "ratio"), value: 2)
        try repository.update(ref("com.shop", "flags"), value: ["beta": true, "list": [1, 2.5, "x"]])
        try repository.update(ref("com.shop", "created"), value: 7)
        #expect(try sandbox.get("com.shop", "theme") == #""dark""#)
        #expect(try sandbox.get("com.shop", "launched") == #"{"$$date":"2027-01-02T03:04:05Z"}"#)
        #expect(try sandbox.get("com.shop", "blob") == #"{"$$data":"/wA="}"#)
        #expect(try sandbox.get("com.shop", "ratio") == "2.0", "a number key keeps its type")
        #expect(try sandbox.get("com.shop", "flags") == #"{"beta":true,"list":[1,2.5,"x"]}"#)
        #expect(try sandbox.get("com.shop", "created") == "7")
        let mirror = try #require(sandbox.mirror("com.shop"))
        #expect(mirror.get("launched") == "2027-01-02T03:04:05.000000Z", "the mirror holds what the suite gives back")
        #expect(mirror.get("ratio") == 2.0)
        #expect(repository.items().first { $0.key == "created" }?.type == .integer)

        try repository.delete(ref("com.shop", "theme"))
        #expect(try sandbox.get("com.shop", "theme") == "missing")
        #expect(mirror.get("theme") == nil)
        #expect(prefsHubCode { try repository.delete(ref("com.shop", "theme")) } == .unknownKey)
        #expect(prefsHubCode { try repository.update(ref("com.absent", "k"), value: 1) } == .unknownKey)
    }

    @Test("edits of the wrong form are type_mismatch and change nothing")
    func typeMismatches() throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("com.shop", "launched", #"{"$$date": "2026-11-21T10:00:00Z"}"#)
        try sandbox.set("com.shop", "blob", #"{"$$data": "AQID"}"#)
        let repository = try sandbox.repository()
        let changes = sandbox.recordChanges()
        #expect(
            prefsHubCode { try repository.update(ref("com.shop", "launched"), value: "next week") } == .typeMismatch)
        #expect(prefsHubCode { try repository.update(ref("com.shop", "launched"), value: 5) } == .typeMismatch)
        #expect(prefsHubCode { try repository.update(ref("com.shop", "blob"), value: "%%%") } == .typeMismatch)
        #expect(prefsHubCode { try repository.update(ref("com.shop", "new"), value: nil) } == .typeMismatch)
        #expect(prefsHubCode { try repository.update(ref("com.shop", "new"), value: [1, nil]) } == .typeMismatch)
        #expect(changes.all.isEmpty)
        #expect(
            try sandbox.dump("com.shop") == ["launched": ["$date": "2026-11-21T10:00:00Z"], "blob": ["$data": "AQID"]])
    }

    @Test("a refresh picks up another process's changes as one change per suite, keeping unchanged timestamps")
    func refreshIsOneChange() throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("com.shop", "a", "1")
        try sandbox.set("com.shop", "b", "2")
        try sandbox.set("com.shop", "c", "3")
        let repository = try sandbox.repository()
        let before = Dictionary(uniqueKeysWithValues: repository.items().map { ($0.key, $0.timestamp) })
        let changes = sandbox.recordChanges()
        try sandbox.set("com.shop", "a", "10")
        try sandbox.remove("com.shop", "b")
        try sandbox.set("com.shop", "d", #""new""#)
        try repository.refresh()
        let id = StoreID(scope: .app, storage: .userPrefs(suite: "com.shop"))
        #expect(changes.of(id).count == 1)
        #expect(changes.of(id).first?.patches.count == 3)
        #expect(sandbox.mirror("com.shop")?.snapshot() == ["a": 10, "c": 3, "d": "new"])
        let after = Dictionary(uniqueKeysWithValues: repository.items().map { ($0.key, $0.timestamp) })
        #expect(after["c"] == before["c"])
        #expect(after["a"]! > before["a"]!)
        // Nothing changed: no change at all.
        try repository.refresh()
        #expect(changes.all.count == 1)
    }

    @Test("suites that appear are mirrored, suites that go away are unregistered")
    func containersComeAndGo() throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("com.a", "k", "1")
        let repository = try sandbox.repository()
        #expect(sandbox.mirror("com.b") == nil)
        try sandbox.set("com.b", "k", "2")
        try repository.refresh()
        #expect(sandbox.mirror("com.b")?.snapshot() == ["k": 2])
        try FileManager.default.removeItem(at: sandbox.config.appendingPathComponent("com.a.plist"))
        try repository.refresh()
        #expect(sandbox.mirror("com.a") == nil)
        #expect(repository.containers().map(\.name) == ["com.b"])
        // Deleting the last key removes the suite's file (Foundation does); the next refresh drops the mirror.
        try repository.delete(ref("com.b", "k"))
        try repository.refresh()
        #expect(repository.containers().isEmpty)
        repository.stop()
        #expect(sandbox.registry.stores.isEmpty)
    }

    @Test("include and exclude lists (exclude wins) and discovery off")
    func includeExclude() throws {
        let sandbox = try PrefsSandbox()
        for suite in ["com.shop", "com.shop.cache", "com.shop.ui", "org.other"] { try sandbox.set(suite, "k", "1") }
        let some = try sandbox.repository(
            PreferencesConfiguration(includeSuites: ["com.shop*"], excludeSuites: ["*.cache", "com.shop.ui"]))
        #expect(some.containers().map(\.name) == ["com.shop"])
        #expect(prefsHubCode { try some.update(ref("com.shop.cache", "k"), value: 2) } == .unknownKey)
        #expect(prefsHubCode { try some.delete(ref("org.other", "k")) } == .unknownKey)
        #expect(try sandbox.get("com.shop.cache", "k") == "1")
        some.stop()

        let listed = try sandbox.repository(
            PreferencesConfiguration(
                discoverUserDefaults: false, includeSuites: ["org.other", "com.*", "com.fresh", "com.shop.ui"],
                excludeSuites: ["com.shop.ui"]))
        #expect(listed.containers().map(\.name) == ["com.fresh", "org.other"], "plain names only, even without a file")
        try listed.update(ref("com.fresh", "made"), value: true)
        #expect(try sandbox.get("com.fresh", "made") == "true")
    }

    @Test("system keys are hidden unless shown, and hidden ones cannot be edited")
    func systemKeys() throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("com.shop", "AppleLanguages", #"["en"]"#)
        try sandbox.set("com.shop", "NSWindowFrame", #""0 0 10 10""#)
        try sandbox.set("com.shop", "theme", #""dark""#)
        let hidden = try sandbox.repository()
        #expect(hidden.items().map(\.key) == ["theme"])
        #expect(sandbox.mirror("com.shop")?.snapshot() == ["theme": "dark"])
        #expect(prefsHubCode { try hidden.update(ref("com.shop", "AppleLanguages"), value: ["fr"]) } == .unknownKey)
        let hub = sandbox.hub(hidden)
        #expect(
            prefsHubCode { try hub.write(store: "app/userPrefs:com.shop", op: "set", path: "NSx", value: 1) }
                == .badRequest)
        hidden.stop()
        let shown = try sandbox.repository(PreferencesConfiguration(showSystemKeys: true))
        #expect(shown.items().filter(\.isSystem).map(\.key) == ["AppleLanguages", "NSWindowFrame"])
        try shown.update(ref("com.shop", "AppleLanguages"), value: ["fr"])
        #expect(try sandbox.get("com.shop", "AppleLanguages") == #"["fr"]"#)
    }

    @Test("editing off refuses every update and delete with read_only; refresh still works")
    func editingOff() throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("com.shop", "theme", #""light""#)
        let repository = try sandbox.repository(PreferencesConfiguration(editingEnabled: false))
        #expect(prefsHubCode { try repository.update(ref("com.shop", "theme"), value: "dark") } == .readOnly)
        #expect(prefsHubCode { try repository.update(ref("com.shop", "theme"), value: "light") } == .readOnly)
        #expect(prefsHubCode { try repository.delete(ref("com.shop", "theme")) } == .readOnly)
        #expect(try sandbox.get("com.shop", "theme") == #""light""#)
        try sandbox.set("com.shop", "theme", #""blue""#)
        try repository.refresh()
        #expect(sandbox.mirror("com.shop")?.get("theme") == "blue", "a rescan passes the gate with editing off")
    }

    @Test("the periodic refresh picks up changes on its own")
    func autoRefresh() async throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("com.shop", "n", "1")
        let repository = try sandbox.repository()
        #expect(!repository.isAutoRefreshing)
        repository.startAutoRefresh(every: .milliseconds(50))
        #expect(repository.isAutoRefreshing)
        try sandbox.set("com.shop", "n", "2")
        let deadline = ContinuousClock.now + .seconds(10)
        while sandbox.mirror("com.shop")?.get("n") != 2 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(sandbox.mirror("com.shop")?.get("n") == 2)
        repository.stopAutoRefresh()
        #expect(!repository.isAutoRefreshing)
    }
}
