import KeyscopeCore
import Testing

@testable import KeyscopeClient

/// Server messages are sorted by type; replies read their fields.
@Suite struct InspectorMessageTests {
    @Test func messagesAreSortedByType() {
        let hello: StoreValue = ["type": "hello", "protocol": 1]
        #expect(InspectorMessage(hello) == .hello(hello))
        let snapshot: StoreValue = ["type": "snapshot", "seq": 3, "stores": []]
        #expect(InspectorMessage(snapshot) == .snapshot(snapshot))
        #expect(InspectorMessage(["type": "changes", "entries": [["seq": 4]]]) == .changes([["seq": 4]]))
        #expect(InspectorMessage(["type": "gap", "from": 5, "to": 9]) == .gap(from: 5, to: 9))
        let list: StoreValue = ["type": "subscriptions", "list": []]
        #expect(InspectorMessage(list) == .subscriptions(list))
        let reply: StoreValue = ["type": "reply", "id": .null, "ok": false]
        #expect(InspectorMessage(reply) == .reply(InspectorReply(message: reply)))
    }

    @Test func unknownTypesAndMessagesMissingTheirFieldsAreOther() {
        for message: StoreValue in [
            ["type": "future"], ["no": "type"], ["type": "changes"], ["type": "gap", "from": 1], ["type": 3],
        ] {
            #expect(InspectorMessage(message) == .other(message))
        }
    }

    @Test func repliesReadOkResultSeqAndError() {
        let ok = InspectorReply(message: ["type": "reply", "id": 7, "ok": true, "result": ["seq": 42]])
        #expect(ok.ok && ok.id == 7 && ok.seq == 42 && ok.error == nil)
        let nothing = InspectorReply(message: ["type": "reply", "id": 8, "ok": true, "result": ["seq": .null]])
        #expect(nothing.ok && nothing.seq == nil && nothing.result == ["seq": .null])
        let refused = InspectorReply(message: [
            "type": "reply", "id": 9, "ok": false, "error": ["code": "read_only", "message": "read-only server"],
        ])
        #expect(!refused.ok && refused.result == nil && refused.seq == nil)
        #expect(refused.error == InspectorReply.Failure(code: "read_only", message: "read-only server"))
        #expect(refused.error?.description == "read_only: read-only server")
        let bare = InspectorReply(message: ["type": "reply", "ok": false])
        #expect(bare.id == .null && bare.error?.code == "unknown")
    }
}
