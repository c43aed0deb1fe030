import KeyscopeClient
import KeyscopeCore
import KeyscopeInspector
import Testing

@testable import KeyscopeServer

/// Removing one tunable: `DELETE /tune/:key` and the `tune` request with `"op": "remove"`.
@Suite(.serialized) struct TunablesRemovalTests {
    @Test func deleteRemovesTheKeyAsOneLoggedChange() throws {
        let harness = try TuneHarness()
        defer { harness.stop() }
        let (status, json, _) = try harness.call("DELETE", "/tune/free")
        #expect(status == 200, "\(json?.jsonText() ?? "")")
        #expect(json?["ok"] == true)
        #expect(json?["key"] == "free")
        let seq = try #require(json?["seq"]?.integerValue)
        #expect(harness.values["free"] == nil)
        #expect(harness.values.count == TuneHarness.initial.count - 1)
        let change = try #require(harness.hub.entry(seq: Int(seq))?.change)
        #expect(change.storeID == harness.tunables?.storeID)
        #expect(change.patches.map(\.keyPath) == [StoreKeyPath(segments: [.key("free")])])
        #expect(change.patches.first?.oldValue == "x")
        #expect(change.patches.first?.newValue == nil)
    }

    @Test(arguments: [
        ("/tune/nope", 404, "unknown_key"), ("/tune/free/1", 400, "bad_request"), ("/tune/a%2Fb", 400, "bad_request"),
        ("/tune/%zz", 400, "bad_request"), ("/tune/height", 400, "bad_request"),
    ])
    func badDeletesGetTheirStatusAndCodeAndChangeNothing(target: String, status: Int, code: String) throws {
        let harness = try TuneHarness(required: ["height"])
        defer { harness.stop() }
        let seq = harness.hub.lastSeq
        let (answered, json, _) = try harness.call("DELETE", target)
        #expect(answered == status, "\(json?.jsonText() ?? "no JSON")")
        #expect(TuneHarness.code(json) == code)
        #expect(json?["error"]?["message"]?.stringValue?.isEmpty == false)
        #expect(harness.values == TuneHarness.initial)
        #expect(harness.hub.lastSeq == seq)
    }

    @Test func theClientRemovesAKeyWhoseNameNeedsEncoding() throws {
        let harness = try TuneHarness()
        defer { harness.stop() }
        let client = TunablesClient(endpoint: harness.endpoint)
        #expect(try client.set(key: "x[0]", text: "1").seq != nil)
        let removed = try client.remove(key: "x[0]")
        #expect(removed.seq != nil)
        #expect(harness.values["x[0]"] == nil)
        let error = #expect(throws: TunablesClientError.self) { try client.remove(key: "x[0]") }
        #expect(error?.code == "unknown_key")
    }

    @Test func aReadOnlyServerRefusesDeletes() throws {
        let harness = try TuneHarness { $0.readOnly = true }
        defer { harness.stop() }
        let (status, json, _) = try harness.call("DELETE", "/tune/free")
        #expect(status == 403)
        #expect(TuneHarness.code(json) == "read_only")
        #expect(harness.values == TuneHarness.initial)
    }

    @Test func aWebSocketTuneWithOpRemoveRemovesTheKey() async throws {
        let harness = try TuneHarness()
        defer { harness.stop() }
        let client = try await InspectorClient.connect(to: harness.endpoint)
        let reply = try await client.send(request: ["type": "tune", "op": "remove", "key": "title"])
        let seq = Int(try #require(reply.seq, "\(reply.message.jsonText())"))
        #expect(harness.values["title"] == nil)
        #expect(harness.hub.entry(seq: seq)?.change?.patches.first?.keyPath == StoreKeyPath(segments: [.key("title")]))

        for (request, code) in [
            (["type": "tune", "op": "remove", "key": "title"] as StoreValue, "unknown_key"),
            (["type": "tune", "op": "remove", "key": "free", "value": 1], "bad_request"),
            (["type": "tune", "op": "drop", "key": "free"], "bad_request"),
            (["type": "tune", "op": "remove"], "bad_request"),
        ] {
            let refused = try await client.send(request: request)
            #expect(refused.error?.code == code, "\(request.jsonText())")
        }
        #expect(harness.values["free"] == "x")
        await client.close()
    }
}
