import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import KeyscopeTunables
import Testing

/// `InspectorHub.tunablesFeature.tune(key:value:)` and `replaceTunables(with:)`: the checks, their order, one change each.
@Suite struct TunablesHubTests {
    func setUp(readOnly: Bool = false, required: Set<String> = []) throws -> (InspectorHub, FakeTunables) {
        let hub = InspectorHub(registry: StoreRegistry(), options: HubOptions(readOnly: readOnly))
        hub.start()
        let tunables = try FakeTunables(
            registry: hub.registry, values: TuneHarness.initial, schema: TuneHarness.schema, required: required)
        hub.tunablesFeature.endpoint = tunables
        return (hub, tunables)
    }

    @Test func tuneSetsOneTopLevelKeyAndReturnsTheSeqOfItsChange() throws {
        let (hub, tunables) = try setUp()
        let seq = try #require(try hub.tunablesFeature.tune(key: "a.b", value: 5))
        #expect(seq == hub.lastSeq)
        #expect(tunables.store.snapshot()["a.b"] == 5)
        #expect(tunables.store.snapshot()["a"] == nil, "a key with a dot is one key, not a path")
        let change = try #require(hub.entry(seq: seq)?.change)
        #expect(change.transactionID == nil)
        #expect(change.patches.count == 1)
        #expect(change.patches.first?.keyPath == StoreKeyPath(segments: [.key("a.b")]))
        #expect(try hub.tunablesFeature.values()["a.b"] == 5)
    }

    @Test func readOnlyComesFirstThenNoTunablesThenTheSchema() throws {
        let (readOnly, _) = try setUp(readOnly: true)
        #expect(throws: HubError.self) { try readOnly.tunablesFeature.tune(key: "nope", value: .null) }
        do { _ = try readOnly.tunablesFeature.tune(key: "nope", value: .null) } catch {
            #expect(error.code == .readOnly)
        }
        do { _ = try readOnly.tunablesFeature.replaceAll(with: ["nope": 1]) } catch { #expect(error.code == .readOnly) }

        let bare = InspectorHub(registry: StoreRegistry())
        do { _ = try bare.tunablesFeature.tune(key: "height", value: 1) } catch { #expect(error.code == .noTunables) }
        do { _ = try bare.tunablesFeature.replaceAll(with: [:]) } catch { #expect(error.code == .noTunables) }
        do { _ = try bare.tunablesFeature.values() } catch { #expect(error.code == .noTunables) }
        do { _ = try bare.tunablesFeature.panel() } catch { #expect(error.code == .noTunables) }

        let (hub, tunables) = try setUp()
        let seq = hub.lastSeq
        for (key, value, code) in [
            ("nope", StoreValue.integer(1), HubError.Code.unknownKey), ("height", "x", .typeMismatch),
            ("height", 300, .outOfRange),
        ] {
            do {
                _ = try hub.tunablesFeature.tune(key: key, value: value)
                Issue.record("\(key) = \(value) was accepted")
            } catch {
                #expect(error.code == code)
            }
        }
        #expect(hub.lastSeq == seq)
        #expect(tunables.currentValues() == TuneHarness.initial)
    }

    @Test func replaceSetsWhatChangedAndRemovesWhatIsLeftOutInOneTransaction() throws {
        let (hub, tunables) = try setUp()
        var next = TuneHarness.initial
        next["height"] = 50
        next["free"] = nil
        next["extra"] = ["nested": [1, 2]]
        let seq = try #require(try hub.tunablesFeature.replaceAll(with: next))
        #expect(tunables.currentValues() == next)
        let change = try #require(hub.entry(seq: seq)?.change)
        #expect(change.transactionID != nil)
        #expect(change.patches.map(\.op) == [.remove, .set, .set])
        #expect(
            change.patches.map(\.keyPath) == ["free", "extra", "height"].map { StoreKeyPath(segments: [.key($0)]) })
        #expect(try hub.tunablesFeature.replaceAll(with: next) == nil, "the same set records nothing")
        #expect(hub.lastSeq == seq)
    }

    @Test func aRefusedReplacementChangesNothing() throws {
        let (hub, tunables) = try setUp(required: ["height"])
        let seq = hub.lastSeq
        for values in [["height": 1, "nope": 2], ["free": 1], ["height": 999]] as [[String: StoreValue]] {
            #expect(throws: HubError.self) { try hub.tunablesFeature.replaceAll(with: values) }
        }
        #expect(hub.lastSeq == seq)
        #expect(tunables.currentValues() == TuneHarness.initial)
    }

    @Test func tunablesWhoseStoreIsNotRegisteredAreAClearError() throws {
        let hub = InspectorHub(registry: StoreRegistry())
        hub.start()
        hub.tunablesFeature.endpoint = try FakeTunables(
            registry: StoreRegistry(), values: ["free": 1], schema: ["free": .any])
        do {
            _ = try hub.tunablesFeature.tune(key: "free", value: 2)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .unknownStore)
            #expect(error.message.contains("not registered"))
        }
    }
}
