import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopePreferences
import KeyscopeProtocol
import Testing

/// The mirrors are write-through: a client's generic write, transaction or revert reaches the suite (or is refused
/// as a whole), as does the hub's `preference` request.
@Suite("Mirrors")
struct MirrorTests {
    static let shop = "app/userPrefs:com.shop"

    func ref(_ key: String, _ suite: String = "com.shop") -> PreferenceRef {
        PreferenceRef(source: .userDefaults, container: suite, key: key)
    }

    @Test("hub writes, removes and reverts on a mirror reach the suite; a separate process sees them")
    func genericWritesAndRevert() throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("com.shop", "theme", #""light""#)
        try sandbox.set("com.shop", "flags", #"{"beta": false, "list": [1]}"#)
        try sandbox.set("com.shop", "launched", #"{"$$date": "2026-11-21T10:00:00Z"}"#)
        let repository = try sandbox.repository()
        let hub = sandbox.hub(repository)

        let set = try #require(try hub.write(store: Self.shop, op: "set", path: "theme", value: "dark"))
        #expect(try sandbox.get("com.shop", "theme") == #""dark""#)
        try hub.write(store: Self.shop, op: "set", path: "flags.beta", value: true)
        try hub.write(store: Self.shop, op: "insert", path: "flags.list[1]", value: 2)
        #expect(try sandbox.get("com.shop", "flags") == #"{"beta":true,"list":[1,2]}"#, "the whole key is written")
        try hub.write(store: Self.shop, op: "set", path: "launched", value: "2030-01-01T00:00:00Z")
        #expect(try sandbox.get("com.shop", "launched") == #"{"$$date":"2030-01-01T00:00:00Z"}"#, "still a date")
        try hub.transaction(
            store: Self.shop,
            ops: [
                HubWrite(op: "set", path: #"["with.dot"]"#, value: 1.5), HubWrite(op: "set", path: "other", value: "x"),
            ])
        #expect(try sandbox.get("com.shop", "with.dot") == "1.5")
        #expect(try sandbox.get("com.shop", "other") == #""x""#)
        let removed = try #require(try hub.write(store: Self.shop, op: "remove", path: "other", value: nil))
        #expect(try sandbox.get("com.shop", "other") == "missing")

        try hub.revert(seq: removed)
        #expect(try sandbox.get("com.shop", "other") == #""x""#)
        try hub.revert(seq: set)
        #expect(try sandbox.get("com.shop", "theme") == #""light""#)
        #expect(repository.items().first { $0.key == "theme" }?.value == "light")
    }

    @Test("the preference request returns the mirror change's seq, null when the value was already there")
    func preferenceRequestSeq() throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("com.shop", "theme", #""light""#)
        let repository = try sandbox.repository()
        let hub = sandbox.hub(repository)
        let seq = try #require(try hub.preferencesFeature.update(ref("theme"), value: "dark"))
        let entry = try #require(hub.entry(seq: seq))
        #expect(entry.storeID.description == Self.shop)
        #expect(entry.change?.patches.first?.newValue == "dark")
        #expect(try hub.preferencesFeature.update(ref("theme"), value: "dark") == nil)
        // The app changed it meanwhile: the mirror still shows "dark", the suite must get it back all the same.
        try sandbox.set("com.shop", "theme", #""blue""#)
        #expect(try hub.preferencesFeature.update(ref("theme"), value: "dark") == nil)
        #expect(try sandbox.get("com.shop", "theme") == #""dark""#)
        let deleted = try #require(try hub.preferencesFeature.delete(ref("theme")))
        #expect(hub.entry(seq: deleted)?.change?.patches.first?.op == .remove)
        #expect(try sandbox.get("com.shop", "theme") == "missing")
        #expect(prefsHubCode { try hub.preferencesFeature.delete(ref("theme")) } == .unknownKey)
        try hub.revert(seq: deleted)
        #expect(try sandbox.get("com.shop", "theme") == #""dark""#)
    }

    @Test("values a suite cannot hold are refused and nothing changes")
    func refusedValues() throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("com.shop", "theme", #""light""#)
        try sandbox.set("com.shop", "launched", #"{"$$date": "2026-11-21T10:00:00Z"}"#)
        let repository = try sandbox.repository()
        let hub = sandbox.hub(repository)
        let changes = sandbox.recordChanges()
        #expect(prefsHubCode { try hub.write(store: Self.shop, op: "set", path: "theme", value: nil) } == .badRequest)
        #expect(
            prefsHubCode { try hub.write(store: Self.shop, op: "set", path: "theme", value: .null) } == .typeMismatch)
        #expect(
            prefsHubCode { try hub.write(store: Self.shop, op: "set", path: "launched", value: "soon") }
                == .typeMismatch)
        #expect(prefsHubCode { try hub.preferencesFeature.update(ref("launched"), value: "soon") } == .typeMismatch)
        #expect(
            prefsHubCode {
                try hub.transaction(
                    store: Self.shop,
                    ops: [
                        HubWrite(op: "set", path: "theme", value: "dark"),
                        HubWrite(op: "set", path: "bad", value: .null),
                    ])
            } == .typeMismatch)
        #expect(changes.all.isEmpty)
        #expect(sandbox.mirror("com.shop")?.get("theme") == "light")
        #expect(try sandbox.get("com.shop", "theme") == #""light""#, "the transaction's first write was not kept")
        #expect(try sandbox.get("com.shop", "bad") == "missing")
    }

    @Test("editing off: read_only on the preference request, generic writes and reverts; rescans pass")
    func editingOffEverywhere() throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("com.shop", "theme", #""light""#)
        let repository = try sandbox.repository(PreferencesConfiguration(editingEnabled: false))
        let hub = sandbox.hub(repository)
        #expect(prefsHubCode { try hub.preferencesFeature.update(self.ref("theme"), value: "blue") } == .readOnly)
        #expect(prefsHubCode { try hub.preferencesFeature.delete(self.ref("theme")) } == .readOnly)
        #expect(prefsHubCode { try hub.write(store: Self.shop, op: "set", path: "theme", value: "blue") } == .readOnly)
        #expect(prefsHubCode { try hub.write(store: Self.shop, op: "remove", path: "theme", value: nil) } == .readOnly)
        #expect(
            prefsHubCode { try hub.transaction(store: Self.shop, ops: [HubWrite(op: "set", path: "n", value: 1)]) }
                == .readOnly)
        try sandbox.set("com.shop", "theme", #""green""#)
        let changes = sandbox.recordChanges()
        try hub.preferencesFeature.refresh()
        #expect(changes.all.count == 1)
        let refreshed = try #require(hub.entry(seq: hub.lastSeq)?.seq)
        #expect(prefsHubCode { try hub.revert(seq: refreshed) } == .readOnly)
        #expect(try sandbox.get("com.shop", "theme") == #""green""#)
        // A write of what the suite already holds writes nothing, so it passes.
        try hub.write(store: Self.shop, op: "set", path: "theme", value: "green")
    }

    @Test("a hub in read-only mode refuses preference edits before the repository sees them")
    func readOnlyHub() throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("com.shop", "theme", #""light""#)
        let repository = try sandbox.repository()
        let hub = InspectorHub(registry: sandbox.registry, options: HubOptions(readOnly: true))
        hub.preferencesFeature.endpoint = repository
        hub.start()
        #expect(prefsHubCode { try hub.preferencesFeature.update(self.ref("theme"), value: "dark") } == .readOnly)
        try hub.preferencesFeature.refresh()
        #expect(try sandbox.get("com.shop", "theme") == #""light""#)
    }

    @Test("excluded suites have no mirror and no way in")
    func excludedSuites() throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("com.shop", "k", "1")
        try sandbox.set("com.shop.cache", "k", "1")
        let repository = try sandbox.repository(PreferencesConfiguration(excludeSuites: ["*.cache"]))
        let hub = sandbox.hub(repository)
        #expect(
            prefsHubCode { try hub.preferencesFeature.update(self.ref("k", "com.shop.cache"), value: 2) } == .unknownKey
        )
        #expect(prefsHubCode { try hub.preferencesFeature.delete(self.ref("k", "com.shop.cache")) } == .unknownKey)
        #expect(
            prefsHubCode { try hub.write(store: "app/userPrefs:com.shop.cache", op: "set", path: "k", value: 2) }
                == .unknownStore)
        #expect(try sandbox.get("com.shop.cache", "k") == "1")
    }

    @Test("a write through a mirror and a rescan racing it never leave the mirror behind the suite")
    func writesRacingRescans() async throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("com.shop", "n", "0")
        let repository = try sandbox.repository()
        let hub = sandbox.hub(repository)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for value in 1...40 {
                    _ = try? hub.write(store: Self.shop, op: "set", path: "n", value: .integer(Int64(value)))
                }
            }
            group.addTask { for _ in 0..<20 { repository.scanAll() } }
        }
        try repository.refresh()
        let onDisk = try sandbox.get("com.shop", "n")
        #expect(onDisk == "40")
        #expect(sandbox.mirror("com.shop")?.get("n") == 40)
        #expect(repository.items().first?.value == 40)
    }
}
