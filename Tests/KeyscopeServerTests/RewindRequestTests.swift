import KeyscopeClient
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import Testing

@testable import KeyscopeServer

/// Rewinding over the wire (docs/recording.md "Rewind"): `POST /api/rewind`, the WebSocket `rewind` request and
/// `POST /api/request`, on a real server whose hub follows `app/memory` (`{"a": 1}`) and whatever a test adds.
@Suite(.serialized) struct RewindRequestTests {
    /// Changes `app/memory` twice after the returned seq: `a` becomes 3, `b` appears.
    static func changeAfterwards(_ harness: TuneHarness) throws -> (target: Int, store: any Store) {
        let store = try #require(harness.hub.registry.store(StoreID(scope: .app, storage: .memory)))
        let target = harness.hub.lastSeq
        try store.apply(.set("a", 3))
        try store.apply(.set("b", true))
        return (target, store)
    }

    static func expected(seq: Int?, changes: Int, stores: [String]) -> StoreValue {
        [
            "seq": seq.map { .integer(Int64($0)) } ?? .null, "changes": .integer(Int64(changes)),
            "stores": .array(stores.map { .string($0) }), "skipped": [],
        ]
    }

    @Test func postRewindPutsTheStoresBackAndAnswersTheResult() throws {
        let harness = try TuneHarness(withTunables: false)
        defer { harness.stop() }
        let (target, store) = try Self.changeAfterwards(harness)
        let (status, json, response) = try harness.call("POST", "/api/rewind", body: #"{"seq": \#(target)}"#)
        #expect(status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        #expect(response.header("content-type") == "application/json")
        #expect(json == Self.expected(seq: harness.hub.lastSeq, changes: 2, stores: ["app/memory"]))
        #expect(store.snapshot() == ["a": 1])
        // Again: nothing left to undo.
        let (again, againJSON, _) = try harness.call("POST", "/api/rewind", body: #"{"seq": \#(harness.hub.lastSeq)}"#)
        #expect(again == 200 && againJSON == Self.expected(seq: nil, changes: 0, stores: []))
    }

    @Test(
        arguments: [
            (#"{"seq": -1}"#, "application/json", 400, "bad_request"),
            (#"{"seq": "3"}"#, "application/json", 400, "bad_request"),
            (#"{"seq": 1.5}"#, "application/json", 400, "bad_request"),
            (#"{"seq": 999}"#, "application/json", 400, "bad_request"),
            (#"{}"#, "application/json", 400, "bad_request"),
            (#"[3]"#, "application/json", 400, "bad_request"),
            ("", "application/json", 400, "bad_request"),
            (#"{"seq": "#, "application/json", 400, "bad_json"),
            (#"{"seq": 0}"#, "text/plain", 415, "unsupported_media_type"),
        ] as [(String, String, Int, String)])
    func aBadRewindIsRefusedAndChangesNothing(body: String, contentType: String, status: Int, code: String) throws {
        let harness = try TuneHarness(withTunables: false)
        defer { harness.stop() }
        let (_, store) = try Self.changeAfterwards(harness)
        let last = harness.hub.lastSeq
        let (answered, json, _) = try harness.call("POST", "/api/rewind", body: body, contentType: contentType)
        #expect(answered == status, "\(body)")
        #expect(TuneHarness.code(json) == code, "\(body)")
        #expect(harness.hub.lastSeq == last && store.snapshot() == ["a": 3, "b": true])
    }

    @Test func aResetStoreIsAConflict409() throws {
        let harness = try TuneHarness(withTunables: false)
        defer { harness.stop() }
        let factory = DefaultStoreFactory(version: "1.0.0", registry: harness.hub.registry)
        let store = factory.store(scope: .scenario(id: "flow"), storage: .memory)
        let target = harness.hub.lastSeq
        store.set("step", 1)
        factory.updateVersion("2.0.0")
        let (status, json, _) = try harness.call("POST", "/api/rewind", body: #"{"seq": \#(target)}"#)
        #expect(status == 409 && TuneHarness.code(json) == "conflict")
    }

    @Test func aReadOnlyServerRefusesEveryRewindBeforeLookingAtIt() async throws {
        let harness = try TuneHarness(withTunables: false) { $0.readOnly = true }
        defer { harness.stop() }
        for (body, contentType) in [(#"{"seq": 0}"#, "application/json"), ("nonsense", "text/plain"), ("", "")] {
            let (status, json, _) = try harness.call("POST", "/api/rewind", body: body, contentType: contentType)
            #expect(status == 403 && TuneHarness.code(json) == "read_only", "\(body)")
        }
        let (viaRequest, requestJSON, _) = try harness.call(
            "POST", "/api/request", body: #"{"id": 1, "type": "rewind", "seq": 0}"#)
        #expect(viaRequest == 403 && requestJSON?["error"]?["code"] == "read_only")
        let client = try await InspectorClient.connect(to: harness.endpoint)
        for request in [["type": "rewind", "seq": 0], ["type": "rewind"], ["type": "rewind", "seq": "x"]]
            as [StoreValue]
        {
            #expect(try await client.send(request: request).error?.code == "read_only", "\(request.jsonText())")
        }
        await client.close()
    }

    @Test func otherMethodsAre405() throws {
        let harness = try TuneHarness(withTunables: false)
        defer { harness.stop() }
        for method in ["GET", "PUT", "DELETE"] {
            let (status, json, response) = try harness.call(method, "/api/rewind")
            #expect(status == 405 && TuneHarness.code(json) == "method_not_allowed", "\(method)")
            #expect(response.header("allow") == "POST")
        }
    }

    @Test func theWebSocketRequestRepliesWithTheResultAndItsChangesStream() async throws {
        let harness = try TuneHarness(withTunables: false)
        defer { harness.stop() }
        let (target, store) = try Self.changeAfterwards(harness)
        let client = try await InspectorClient.connect(to: harness.endpoint)
        let reply = try await client.send(request: ["type": "rewind", "seq": .integer(Int64(target))])
        let seq = try #require(reply.seq, "\(reply.message.jsonText())")
        #expect(reply.result == Self.expected(seq: Int(seq), changes: 2, stores: ["app/memory"]))
        #expect(store.snapshot() == ["a": 1])
        var seen = false
        for try await message in client.messages {
            guard case .changes(let entries) = InspectorMessage(message) else { continue }
            if let entry = entries.first(where: { $0["seq"]?.integerValue == seq }) {
                #expect(entry["store"] == "app/memory" && entry["txn"]?.stringValue != nil)
                seen = true
                break
            }
        }
        #expect(seen)

        let cases: [(StoreValue, String)] = [
            (["type": "rewind"], "bad_request"),
            (["type": "rewind", "seq": -2], "bad_request"),
            (["type": "rewind", "seq": "1"], "bad_request"),
            (["type": "rewind", "seq": 1_000_000], "bad_request"),
        ]
        let last = harness.hub.lastSeq
        for (request, code) in cases {
            #expect(try await client.send(request: request).error?.code == code, "\(request.jsonText())")
        }
        #expect(harness.hub.lastSeq == last)
        await client.close()
    }

    @Test func overApiRequestTheReplyCarriesItsStatus() throws {
        let harness = try TuneHarness(withTunables: false)
        defer { harness.stop() }
        let (target, store) = try Self.changeAfterwards(harness)
        let (status, json, _) = try harness.call(
            "POST", "/api/request", body: #"{"id": 5, "type": "rewind", "seq": \#(target)}"#)
        #expect(status == 200)
        #expect(json?["result"] == Self.expected(seq: harness.hub.lastSeq, changes: 2, stores: ["app/memory"]))
        #expect(store.snapshot() == ["a": 1])
        let (late, lateJSON, _) = try harness.call(
            "POST", "/api/request", body: #"{"id": 6, "type": "rewind", "seq": 99}"#)
        #expect(late == 400 && lateJSON?["error"]?["code"] == "bad_request")
    }

    @Test func theParserReadsARewind() {
        let refusal = HubError(code: .readOnly, message: "read-only")
        func parse(_ text: String, readOnly: Bool = false) -> Result<ClientRequest, HubError> {
            ClientRequest.parse(Array(text.utf8), maxDepth: 64, refusingWrites: readOnly ? refusal : nil).request
        }
        func seq(_ text: String) -> Int? {
            if case .success(.rewind(let seq)) = parse(text) { return seq }
            return nil
        }
        #expect(seq(#"{"type":"rewind","seq":0}"#) == 0)
        #expect(seq(#"{"id":1,"type":"rewind","seq":12}"#) == 12)
        for bad in [#"{"type":"rewind"}"#, #"{"type":"rewind","seq":-1}"#, #"{"type":"rewind","seq":2.0}"#] {
            #expect((try? parse(bad).get()) == nil, "\(bad)")
        }
        if case .failure(let error) = parse(#"{"type":"rewind","seq":3}"#, readOnly: true) {
            #expect(error == refusal)
        } else {
            Issue.record("a rewind was not refused on a read-only server")
        }
        if case .failure(let error) = parse(#"{"type":"rewound"}"#) {
            #expect(error.code == .unknownType && error.message.contains("rewind"))
        }
    }
}
