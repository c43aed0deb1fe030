import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopePreferences
import KeyscopeProtocol
import KeyscopeTunables
import Testing

@testable import KeyscopeServer

/// Requests as they come off the wire: parsed, validated, executed against a real hub and store.
@Suite struct RequestExecutorTests {
    func setUp(readOnly: Bool = false) throws -> (RequestExecutor, InspectorHub, KeyValueStore) {
        let hub = InspectorHub(
            registry: StoreRegistry(), options: HubOptions(readOnly: readOnly),
            features: [TunablesFeature(), PreferencesFeature()])
        hub.start()
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: ["cart": ["total": 90]])
        try hub.registry.register(store)
        return (RequestExecutor(hub: hub, readOnly: readOnly, maxJSONDepth: 512), hub, store)
    }

    func reply(_ outcome: RequestExecutor.Outcome) throws -> StoreValue {
        try JanssonCodec.decode(outcome.reply)
    }

    @Test func aWriteChangesTheStoreAndRepliesWithTheSeqOfItsChange() throws {
        let (executor, hub, store) = try setUp()
        let outcome = executor.execute(
            Array(#"{"id":7,"type":"write","store":"app/memory","op":"set","path":"cart.total","value":100}"#.utf8))
        #expect(outcome.error == nil)
        #expect(store.get("cart.total") == 100)
        let seq = try #require(hub.entry(seq: hub.lastSeq)).seq
        #expect(try reply(outcome) == ["type": "reply", "id": 7, "ok": true, "result": ["seq": .integer(Int64(seq))]])
    }

    @Test func aTransactionIsOneChangeWithOneTxn() throws {
        let (executor, hub, store) = try setUp()
        let before = hub.lastSeq
        let outcome = executor.execute(
            Array(
                ##"{"id":"t","type":"transaction","store":"app/memory","ops":[{"op":"set","path":"cart.total","value":1},{"op":"set","path":"cart.items","value":[]},{"op":"insert","path":"cart.items[0]","value":{"$color":"#ff8800"}}]}"##
                    .utf8))
        #expect(outcome.error == nil)
        #expect(hub.lastSeq == before + 1)
        #expect(try #require(hub.entry(seq: hub.lastSeq)?.change?.transactionID) != nil)
        #expect(store.get("cart.items[0]") == .color(try #require(StoreColor("#ff8800"))))
    }

    @Test(arguments: [
        (#"not json"#, "bad_json", StoreValue.null),
        (#"[1,2]"#, "bad_json", .null),
        (#"{"id":{"a":1},"type":"resync"}"#, "bad_request", .null),
        (#"{"id":1}"#, "bad_request", 1),
        (#"{"id":1,"type":"dance"}"#, "unknown_type", 1),
        (#"{"id":1,"type":"write","store":"nope/memory","op":"set","path":"a","value":1}"#, "unknown_store", 1),
        (#"{"id":1,"type":"write","store":"app/memory","op":"set","path":"a..b","value":1}"#, "bad_path", 1),
        (
            #"{"id":1,"type":"write","store":"app/memory","op":"set","path":"cart.total.x","value":1}"#,
            "type_mismatch", 1
        ),
        (
            #"{"id":"v","type":"write","store":"app/memory","op":"set","path":"a","value":{"$color":"red"}}"#,
            "type_mismatch", "v"
        ),
        (#"{"id":1,"type":"write","store":"app/memory","op":"set","path":"list[3]","value":1}"#, "type_mismatch", 1),
        (#"{"id":1,"type":"write","store":"app/memory","op":"jump","path":"a","value":1}"#, "bad_request", 1),
        (#"{"id":1,"type":"write","store":"app/memory","op":"set","path":"a"}"#, "bad_request", 1),
        (#"{"id":1,"type":"write","store":"app/memory","op":"set","path":7,"value":1}"#, "bad_request", 1),
        (#"{"id":1,"type":"transaction","store":"app/memory","ops":{}}"#, "bad_request", 1),
        (#"{"id":1,"type":"transaction","store":"app/memory","ops":[]}"#, "bad_request", 1),
        (#"{"id":1,"type":"revert","seq":0}"#, "bad_request", 1),
        (#"{"id":1,"type":"revert","seq":999999}"#, "bad_request", 1),
        (#"{"id":2.5,"type":"tune","key":"k","value":1}"#, "no_tunables", 2.5),
    ])
    func badRequestsGetTheirCodeEchoTheIdAndChangeNothing(message: String, code: String, id: StoreValue) throws {
        let (executor, hub, store) = try setUp()
        let (seq, state) = (hub.lastSeq, store.snapshot())
        let outcome = executor.execute(Array(message.utf8))
        #expect(outcome.error?.code.rawValue == code)
        let decoded = try reply(outcome)
        #expect(decoded["id"] == id)
        #expect(decoded["ok"] == false)
        #expect(hub.lastSeq == seq)
        #expect(store.snapshot() == state)
    }

    @Test func outOfRangeIsItsOwnCode() throws {
        let (executor, _, store) = try setUp()
        store.set("list", [1, 2])
        let outcome = executor.execute(
            Array(#"{"id":1,"type":"write","store":"app/memory","op":"insert","path":"list[5]","value":1}"#.utf8))
        #expect(outcome.error?.code == .outOfRange)
    }

    @Test func aReadOnlyServerRefusesEveryWriteBeforeLookingAtIt() throws {
        let (executor, hub, _) = try setUp(readOnly: true)
        let seq = hub.lastSeq
        for message in [
            #"{"id":1,"type":"write"}"#, #"{"id":1,"type":"transaction","ops":5}"#, #"{"id":1,"type":"revert"}"#,
            #"{"id":1,"type":"tune"}"#,
        ] {
            #expect(executor.execute(Array(message.utf8)).error?.code == .readOnly)
        }
        #expect(executor.execute(Array(#"{"id":1,"type":"resync"}"#.utf8)).error == nil)
        #expect(hub.lastSeq == seq)
    }

    @Test func deepNestingIsBadJSONNotACrash() throws {
        let (executor, _, _) = try setUp()
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let outcome = executor.execute(Array(#"{"id":1,"type":"write","value":"#.utf8) + Array(deep.utf8) + [125])
        #expect(outcome.error?.code == .badJSON)
    }
}
