import Foundation
import InMemoryLogging
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopePreferences
import Logging
import Testing

@Suite struct WatchRulesTests {
    /// A running hub on its own registry with one memory store.
    final class Fixture {
        let registry = StoreRegistry()
        let store: KeyValueStore
        let hub: InspectorHub
        let logs = InMemoryLogHandler()

        init(root: [String: StoreValue] = ["cart": ["total": 0]], options: HubOptions = HubOptions()) throws {
            store = KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: root)
            try registry.register(store)
            hub = InspectorHub(registry: registry, options: options)
            hub.start()
        }

        deinit { hub.stop() }

        func rules(_ rules: [WatchRule], maxViolations: Int = 200, maxEntriesPerPass: Int = 10_000) -> WatchRules {
            WatchRules(
                hub: hub, rules: rules, maxViolations: maxViolations, maxEntriesPerPass: maxEntriesPerPass,
                logger: WrapperTesting.logger(logs))
        }
    }

    static let memory = StoreID(scope: .app, storage: .memory)
    static let cartTotal = WatchRule(
        id: "cart-total-non-negative", label: "cart total is one of the allowed values", store: memory,
        path: "cart.total", allowed: [0, 100])

    @Test func aChangeThatBreaksARuleIsFlaggedWithItsSeq() throws {
        let fixture = try Fixture()
        let rules = fixture.rules([Self.cartTotal])
        rules.evaluateNow()
        var state = try #require(rules.states().first)
        #expect(state.current == 0)
        #expect(state.ok)
        #expect(state.violations == 0)

        fixture.store.set("cart.total", 100)
        fixture.store.set("cart.note", "unrelated")
        fixture.store.set("cart.total", -5)
        let breaking = fixture.hub.lastSeq
        fixture.store.set("user.name", "ann")
        rules.evaluateNow()

        state = try #require(rules.states().first)
        #expect(state.current == -5)
        #expect(!state.ok)
        #expect(state.violations == 1)
        #expect(state.seq == breaking)
        let violation = try #require(rules.violations().first)
        #expect(violation.rule == "cart-total-non-negative")
        #expect(violation.store == Self.memory)
        #expect(violation.path == "cart.total")
        #expect(violation.seq == breaking)
        #expect(violation.value == -5)
        #expect(violation.message == "cart.total is -5, allowed: 0, 100")
        let entry = try #require(fixture.hub.entry(seq: breaking))
        #expect(entry.change?.patches.first?.newValue == -5, "the seq is the change's")
        #expect(abs(violation.time.timeIntervalSince(entry.time.date)) < 0.001)

        let warning = try #require(fixture.logs.entries.first { $0.level == .warning })
        #expect("\(warning.message)".contains("cart-total-non-negative"))
        #expect(warning.metadata["seq"] == "\(breaking)")

        fixture.store.set("cart.total", 0)
        rules.evaluateNow()
        #expect(rules.states().first?.ok == true)
        #expect(rules.states().first?.violations == 1)
    }

    @Test func expectedValuesAndMissingPaths() throws {
        let fixture = try Fixture()
        let rules = fixture.rules([
            WatchRule(id: "beta", store: Self.memory, path: "flags.beta", expected: true),
            WatchRule(id: "optional-mode", store: Self.memory, path: "mode", allowed: [.null, "fast"]),
            WatchRule(
                id: "other-store", store: StoreID(scope: .app, storage: .userPrefs(suite: "com.nowhere")),
                path: "p_Ready", expected: "yes"),
        ])
        rules.evaluateNow()
        let start = fixture.hub.lastSeq
        var states = rules.states()
        #expect(states.map(\.rule.id) == ["beta", "optional-mode", "other-store"])
        #expect(states.map(\.ok) == [false, true, false], "missing reads as null")
        #expect(states.map(\.current) == [nil, nil, nil])
        let initial = rules.violations()
        #expect(initial.map(\.rule) == ["other-store", "beta"])
        #expect(initial.allSatisfy { $0.seq == start && $0.value == nil })
        #expect(initial.last?.message == "flags.beta is missing, expected: true")
        #expect(states.first?.rule.label == "flags.beta is true")

        fixture.store.set("flags.beta", true)
        fixture.store.set("mode", "slow")
        rules.evaluateNow()
        states = rules.states()
        #expect(states.map(\.ok) == [true, false, false])
        #expect(rules.violations().first?.message == #"mode is "slow", allowed: null, "fast""#)

        fixture.store.remove("flags")  // an ancestor goes: the path is missing again
        rules.evaluateNow()
        #expect(rules.states().first?.ok == false)
        #expect(rules.states().first?.violations == 2)
    }

    @Test func changesOfAncestorsAndShiftingArraysAreEvaluated() throws {
        let fixture = try Fixture(root: ["cart": ["total": 0], "items": ["a", "b"]])
        let rules = fixture.rules([
            Self.cartTotal, WatchRule(id: "second", store: Self.memory, path: "items[1]", expected: "b"),
        ])
        rules.evaluateNow()
        fixture.store.set("cart", ["total": 7])
        fixture.store.insert("items[0]", "z")
        rules.evaluateNow()
        #expect(rules.states().map(\.ok) == [false, false])
        #expect(rules.states().map(\.current) == [7, "a"])
        #expect(rules.violations().count == 2)
    }

    @Test func theBackgroundQueueFollowsTheLog() throws {
        let fixture = try Fixture()
        let rules = fixture.rules([Self.cartTotal])
        rules.start()
        defer { rules.stop() }
        #expect(WrapperTesting.eventually { rules.states().first?.current == 0 })
        fixture.store.set("cart.total", 3)
        let seq = fixture.hub.lastSeq
        #expect(WrapperTesting.eventually { rules.violations().first?.seq == seq })
    }

    @Test func aGapIsReevaluatedFromTheSnapshot() throws {
        let fixture = try Fixture(options: HubOptions(maxEntries: 4))
        let rules = fixture.rules([Self.cartTotal], maxEntriesPerPass: 2)
        rules.evaluateNow()
        for value in 1...20 { fixture.store.set("cart.total", .integer(Int64(value))) }
        fixture.store.set("cart.total", 100)
        for value in 1...20 { fixture.store.set("user.n", .integer(Int64(value))) }
        rules.evaluateNow()
        let state = try #require(rules.states().first)
        #expect(state.current == 100)
        #expect(state.ok)
        #expect(state.seq == fixture.hub.lastSeq, "the snapshot's seq")
    }

    @Test func aHubRestartIsNotAViolationButAStoreThatLeavesIs() throws {
        let fixture = try Fixture()
        let rules = fixture.rules([Self.cartTotal])
        rules.evaluateNow()
        fixture.hub.stop()
        rules.evaluateNow()
        fixture.hub.start()
        rules.evaluateNow()
        #expect(rules.violations().isEmpty)
        #expect(rules.states().first?.current == 0)

        fixture.registry.unregister(Self.memory)
        rules.evaluateNow()
        #expect(rules.states().first?.current == nil)
        #expect(rules.violations().first?.message == "cart.total is missing, allowed: 0, 100")
        #expect(rules.violations().first?.seq == fixture.hub.lastSeq)
    }

    @Test func violationsAreBoundedNewestFirst() throws {
        let fixture = try Fixture()
        let rules = fixture.rules([Self.cartTotal], maxViolations: 3)
        for value in 1...5 {
            fixture.store.set("cart.total", .integer(Int64(-value)))
            rules.evaluateNow()
        }
        #expect(rules.violations().map(\.value) == [-5, -4, -3])
        #expect(rules.states().first?.violations == 5)
    }

    @Test func rulesWatchPreferenceMirrorStores() throws {
        let fixture = try Fixture()
        let mirrorID = StoreID(scope: .app, storage: .userPrefs(suite: "com.shop.status"))
        let mirror = KeyValueStore(id: mirrorID, root: ["p_Ready": "yes"])
        try fixture.registry.register(mirror)
        let rules = fixture.rules([WatchRule(id: "ready", store: mirrorID, path: "p_Ready", expected: "yes")])
        rules.evaluateNow()
        #expect(rules.states().first?.ok == true)
        mirror.set("p_Ready", "no")
        rules.evaluateNow()
        #expect(rules.violations().first?.store.description == "app/userPrefs:com.shop.status")
        #expect(rules.violations().first?.seq == fixture.hub.lastSeq)
    }
}
