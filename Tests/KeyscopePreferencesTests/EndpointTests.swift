import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopePreferences
import KeyscopeProtocol
import Testing

/// The inspector's view: the panel's JSON, field by field, and secrets that never leave the process unredacted.
@Suite("Endpoint and secrets")
struct EndpointTests {
    static let token = "tok-7f3a9c2e1b5d4f60a8e2"  // 24 bytes, never to be seen outside the secret store
    static let api = "app/secrets:com.shop.api"

    func secretRef(_ account: String, _ service: String = "com.shop.api") -> PreferenceRef {
        PreferenceRef(source: .secrets, container: service, key: account)
    }

    func secrets() -> TestSecretStore {
        TestSecretStore(["com.shop.api": ["token": Data(Self.token.utf8), "raw": Data([0xFF, 0x00, 0x01])]])
    }

    @Test("the panel is the documented shape, field by field")
    func panelShape() throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("com.shop", "theme", #""dark""#)
        try sandbox.set("com.shop", "launched", #"{"$$date": "2026-11-21T10:00:00Z"}"#)
        let modified = try #require(try sandbox.scanner.read(suite: "com.shop")?.modified)
        let repository = try sandbox.repository(secrets: secrets())
        let hub = sandbox.hub(repository)
        let panel = try hub.preferencesFeature.panel()
        let object = try #require(panel.objectValue)
        #expect(Set(object.keys) == ["editing", "reveal", "showSystemKeys", "containers", "items"])
        #expect(object["editing"] == true)
        #expect(object["reveal"] == false)
        #expect(object["showSystemKeys"] == false)

        let containers = try #require(object["containers"]?.arrayValue)
        #expect(containers.count == 2)
        #expect(
            containers[0] == [
                "source": "userDefaults", "container": "com.shop", "store": "app/userPrefs:com.shop",
                "location": .string(sandbox.config.appendingPathComponent("com.shop.plist").path), "count": 2,
            ])
        #expect(
            containers[1] == [
                "source": "secrets", "container": "com.shop.api", "store": .string(Self.api), "location": "memory",
                "count": 2,
            ])

        let items = try #require(object["items"]?.arrayValue)
        #expect(
            items.compactMap { $0["id"]?.stringValue } == [
                "userDefaults/com.shop/launched", "userDefaults/com.shop/theme", "secrets/com.shop.api/raw",
                "secrets/com.shop.api/token",
            ])
        let stamp = StoreValue.string(Self.logTime(modified))
        #expect(
            items[1] == [
                "id": "userDefaults/com.shop/theme", "key": "theme", "value": "dark", "type": "string",
                "source": "userDefaults", "container": "com.shop", "suite": "com.shop",
                "store": "app/userPrefs:com.shop",
                "timestamp": stamp, "redacted": false, "system": false,
            ])
        #expect(items[0]["value"] == "2026-11-21T10:00:00.000000Z")
        #expect(items[0]["type"] == "date")
        let token = items[3]
        #expect(
            Set(token.objectValue?.keys ?? [:].keys) == [
                "id", "key", "value", "type", "source", "container", "service", "store", "timestamp", "redacted",
                "length",
                "system",
            ])
        #expect(token["value"] == "•••• (24)")
        #expect(token["type"] == "string")
        #expect(token["service"] == "com.shop.api")
        #expect(token["store"] == .string(Self.api))
        #expect(token["redacted"] == true)
        #expect(token["length"] == 24)
        #expect(token["system"] == false)
        #expect(items[2]["type"] == "data")
        #expect(items[2]["value"] == "•••• (3)")
        let timestamp = try #require(token["timestamp"]?.stringValue)
        #expect(timestamp.count == 27 && timestamp.hasSuffix("Z"), "the log's time form: \(timestamp)")
        #expect(!panel.jsonText(sortedKeys: true).contains(Self.token))
    }

    @Test("no_preferences without a repository")
    func noPreferences() {
        let hub = InspectorHub(registry: StoreRegistry())
        #expect(prefsHubCode { _ = try hub.preferencesFeature.panel() } == .noPreferences)
        #expect(prefsHubCode { try hub.preferencesFeature.refresh() } == .noPreferences)
    }

    @Test("secrets stay redacted in mirrors, the panel, snapshots and frames; edits go to the secret store")
    func secretsRedacted() throws {
        let sandbox = try PrefsSandbox()
        let store = secrets()
        let repository = try sandbox.repository(secrets: store)
        let hub = sandbox.hub(repository)
        let (_, cursor) = hub.makeCursor()
        let mirror = try #require(sandbox.secretsMirror("com.shop.api"))
        #expect(mirror.snapshot() == ["token": "•••• (24)", "raw": "•••• (3)"])

        let replacement = "new-secret-value"
        let seq = try #require(try hub.preferencesFeature.update(secretRef("token"), value: .string(replacement)))
        #expect(store.all["com.shop.api"]?["token"] == Data(replacement.utf8))
        #expect(mirror.get("token") == "•••• (16)")
        #expect(
            prefsHubCode { try hub.preferencesFeature.update(self.secretRef("k", "com.shop.new"), value: "x") }
                == .unknownKey)
        try hub.preferencesFeature.update(secretRef("created"), value: "made here")
        #expect(store.all["com.shop.api"]?["created"] == Data("made here".utf8))
        try hub.preferencesFeature.update(secretRef("raw"), value: "/wAA")  // a data secret takes base64
        #expect(store.all["com.shop.api"]?["raw"] == Data([0xFF, 0, 0]))
        #expect(prefsHubCode { try hub.preferencesFeature.update(self.secretRef("raw"), value: "%%") } == .typeMismatch)
        #expect(prefsHubCode { try hub.preferencesFeature.update(self.secretRef("token"), value: 5) } == .typeMismatch)

        // Generic writes and reverts cannot carry a secret: refused while redacted.
        #expect(
            prefsHubCode { try hub.write(store: Self.api, op: "set", path: "token", value: "guess") } == .badRequest)
        #expect(prefsHubCode { try hub.write(store: Self.api, op: "remove", path: "token", value: nil) } == .badRequest)
        #expect(prefsHubCode { try hub.revert(seq: seq) } == .badRequest)
        #expect(store.all["com.shop.api"]?["token"] == Data(replacement.utf8))

        try repository.refresh()
        let deleted = try hub.preferencesFeature.delete(secretRef("token"))
        #expect(deleted != nil)
        #expect(store.all["com.shop.api"]?["token"] == nil)

        for text in [Self.token, replacement] {
            #expect(!mirror.snapshot().jsonText(sortedKeys: true).contains(text))
            #expect(!repository.panelDescription().jsonText(sortedKeys: true).contains(text))
            #expect(!String(decoding: hub.snapshot().messageBytes(), as: UTF8.self).contains(text))
            #expect(!repository.items().contains { $0.value.jsonText(sortedKeys: true).contains(text) })
        }
        var frames = ""
        while let read = cursor.next(maxEntries: 1000, maxBytes: 1 << 20) {
            if case .entries(let entries) = read {
                for entry in entries { frames += String(decoding: entry.lineBytes, as: UTF8.self) + "\n" }
            }
        }
        #expect(frames.contains("•••• (16)"))
        #expect(!frames.contains(Self.token) && !frames.contains(replacement))
    }

    @Test("with reveal on, secrets are shown and generic writes reach the secret store")
    func secretsRevealed() throws {
        let sandbox = try PrefsSandbox()
        let store = secrets()
        let repository = try sandbox.repository(PreferencesConfiguration(revealSecrets: true), secrets: store)
        let hub = sandbox.hub(repository)
        let mirror = try #require(sandbox.secretsMirror("com.shop.api"))
        #expect(mirror.snapshot() == ["token": .string(Self.token), "raw": "/wAB"])
        #expect(repository.panelDescription()["reveal"] == true)
        #expect(repository.items(source: .secrets).allSatisfy { !$0.isRedacted })
        let seq = try #require(try hub.write(store: Self.api, op: "set", path: "token", value: "typed"))
        #expect(store.all["com.shop.api"]?["token"] == Data("typed".utf8))
        try hub.write(store: Self.api, op: "set", path: "raw", value: "AAAA")
        #expect(store.all["com.shop.api"]?["raw"] == Data([0, 0, 0]))
        try hub.revert(seq: seq)
        #expect(store.all["com.shop.api"]?["token"] == Data(Self.token.utf8))
        #expect(prefsHubCode { try hub.write(store: Self.api, op: "set", path: "token", value: 1) } == .typeMismatch)
    }

    @Test("a secret store that fails changes nothing")
    func failingSecretStore() throws {
        let sandbox = try PrefsSandbox()
        let store = secrets()
        let repository = try sandbox.repository(PreferencesConfiguration(revealSecrets: true), secrets: store)
        let hub = sandbox.hub(repository)
        store.failWrites()
        let changes = sandbox.recordChanges()
        #expect(prefsHubCode { try hub.preferencesFeature.update(self.secretRef("token"), value: "x") } == .badRequest)
        #expect(prefsHubCode { try hub.preferencesFeature.delete(self.secretRef("token")) } == .badRequest)
        #expect(
            prefsHubCode {
                try hub.transaction(
                    store: Self.api,
                    ops: [
                        HubWrite(op: "set", path: "a", value: "1"), HubWrite(op: "set", path: "token", value: "2"),
                    ])
            } == .badRequest)
        #expect(changes.all.isEmpty)
        #expect(store.all["com.shop.api"]?["token"] == Data(Self.token.utf8))
        #expect(sandbox.secretsMirror("com.shop.api")?.get("token") == .string(Self.token))
    }

    @Test("secret services follow the include and exclude lists")
    func secretServicesSelected() throws {
        let sandbox = try PrefsSandbox()
        let store = TestSecretStore(["com.a": ["k": Data("1".utf8)], "com.b": ["k": Data("2".utf8)]])
        let some = try sandbox.repository(PreferencesConfiguration(excludeServices: ["com.b"]), secrets: store)
        #expect(some.containers().map(\.name) == ["com.a"])
        #expect(prefsHubCode { try some.update(self.secretRef("k", "com.b"), value: "3") } == .unknownKey)
        some.stop()
        let listed = try sandbox.repository(
            PreferencesConfiguration(discoverSecrets: false, includeServices: ["com.b", "com.c"]), secrets: store)
        #expect(listed.containers().map(\.name) == ["com.b", "com.c"])
        try listed.update(secretRef("k", "com.c"), value: "new")
        #expect(store.all["com.c"]?["k"] == Data("new".utf8))
    }

    /// `date` as the log writes times (six fractional digits, UTC), rounded by LogTime itself: a rounding of our
    /// own here disagreed with it by a microsecond now and then.
    static func logTime(_ date: Date) -> String {
        LogTime(date)?.rfc3339 ?? "outside the log's years"
    }
}
