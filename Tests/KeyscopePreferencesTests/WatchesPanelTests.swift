import Foundation
import InMemoryLogging
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopePreferences
import Testing

@Suite struct WatchesPanelTests {
    @Test func thePanelHasTheDocumentedShape() throws {
        let suite = try WrapperTesting.Suite()
        let registry = StoreRegistry()
        let memory = StoreID(scope: .app, storage: .memory)
        let store = KeyValueStore(id: memory, root: ["cart": ["total": 100]])
        try registry.register(store)
        let hub = InspectorHub(registry: registry)
        hub.start()
        defer { hub.stop() }

        let tracker = StatusTracker(
            suite: suite.name, statuses: [WatchedStatus("DataDirWritable") { "yes" }],
            logger: WrapperTesting.logger(InMemoryLogHandler()))
        let rules = WatchRules(
            hub: hub,
            rules: [
                WatchRule(
                    id: "cart-total-non-negative", label: "cart total is one of the allowed values", store: memory,
                    path: "cart.total", allowed: [0, 100]),
                WatchRule(id: "beta", store: memory, path: "flags.beta", expected: false),
            ], logger: WrapperTesting.logger(InMemoryLogHandler()))
        let watches = Watches(statuses: tracker, rules: rules)
        watches.start()
        defer { watches.stop() }
        hub.watchesFeature.endpoint = watches
        rules.evaluateNow()  // the start's snapshot, before the change (the background pass may not have run yet)
        store.set("cart.total", -5)
        let breaking = hub.lastSeq
        try hub.watchesFeature.refresh()  // POST /api/watches/refresh: statuses now, rules up to the newest change

        let panel = try hub.watchesFeature.panel()
        #expect(Set(panel.objectValue?.keys ?? [:].keys) == ["statuses", "rules", "violations"])

        let status = try #require(panel["statuses"]?[0]?.objectValue)
        #expect(
            Set(status.keys) == ["name", "key", "suite", "value", "stored", "inSync", "checked", "history"])
        #expect(status["name"] == "DataDirWritable")
        #expect(status["key"] == "p_DataDirWritable")
        #expect(status["suite"] == .string(suite.name))
        #expect(status["value"] == "yes")
        #expect(status["stored"] == "yes")
        #expect(status["inSync"] == true)
        #expect(isLogTime(status["checked"]))
        let history = try #require(status["history"]?.arrayValue)
        #expect(history.count == 1)
        let change = try #require(history.first?.objectValue)
        #expect(Set(change.keys) == ["time", "before", "after"])
        #expect(change["before"] == .null)
        #expect(change["after"] == "yes")
        #expect(isLogTime(change["time"]))

        let rulesList = try #require(panel["rules"]?.arrayValue)
        #expect(rulesList.count == 2)
        let cart = try #require(rulesList.first?.objectValue)
        #expect(
            Set(cart.keys)
                == ["id", "label", "store", "path", "expected", "allowed", "current", "ok", "violations"])
        #expect(cart["id"] == "cart-total-non-negative")
        #expect(cart["label"] == "cart total is one of the allowed values")
        #expect(cart["store"] == "app/memory")
        #expect(cart["path"] == "cart.total")
        #expect(cart["expected"] == .null)
        #expect(cart["allowed"] == [0, 100])
        #expect(cart["current"] == -5)
        #expect(cart["ok"] == false)
        #expect(cart["violations"] == 1)
        let beta = try #require(rulesList.last?.objectValue)
        #expect(beta["expected"] == false)
        #expect(beta["allowed"] == .null)
        #expect(beta["current"] == .null, "a missing path")
        #expect(beta["ok"] == false)

        let violations = try #require(panel["violations"]?.arrayValue)
        #expect(violations.count == 2, "the cart change, and the missing flag found at the start")
        let newest = try #require(violations.first?.objectValue)
        #expect(Set(newest.keys) == ["rule", "store", "path", "seq", "time", "value", "message"])
        #expect(newest["rule"] == "cart-total-non-negative")
        #expect(newest["store"] == "app/memory")
        #expect(newest["path"] == "cart.total")
        #expect(newest["seq"] == .integer(Int64(breaking)))
        #expect(newest["value"] == -5)
        #expect(newest["message"] == "cart.total is -5, allowed: 0, 100")
        #expect(newest["time"] == .string(try #require(hub.entry(seq: breaking)).time.rfc3339))
        #expect(violations.last?["value"] == .null)

        // The panel is JSON per docs/store.md.
        let text = panel.jsonText(sortedKeys: true)
        #expect(try StoreValue(jsonText: text) == panel)
    }

    @Test func anEmptyWatchesEndpointHasEmptyLists() {
        let panel = Watches().panelDescription()
        #expect(panel == ["statuses": [], "rules": [], "violations": []])
    }

    private func isLogTime(_ value: StoreValue?) -> Bool {
        guard let text = value?.stringValue else { return false }
        return text.count == 27 && text.hasSuffix("Z") && text.contains("T")
    }
}
