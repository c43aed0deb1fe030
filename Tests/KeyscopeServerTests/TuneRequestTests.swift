import KeyscopeClient
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import KeyscopeTunables
import Testing

@testable import KeyscopeServer

/// The `tune` request: over a real WebSocket, through `POST /api/request`, and through the executor.
@Suite(.serialized) struct TuneRequestTests {
    @Test func aWebSocketTuneIsAppliedAndRepliesWithTheSeqOfItsChange() async throws {
        let harness = try TuneHarness()
        defer { harness.stop() }
        let client = try await InspectorClient.connect(to: harness.endpoint)
        let reply = try await client.send(request: ["type": "tune", "key": "height", "value": 64])
        let seq = Int(try #require(reply.seq, "\(reply.message.jsonText())"))
        #expect(harness.values["height"] == 64)
        let change = try #require(harness.hub.entry(seq: seq)?.change)
        #expect(change.storeID == harness.tunables?.storeID)
        #expect(change.patches.first?.keyPath == StoreKeyPath(segments: [.key("height")]))

        // The change reaches the client's stream like any other.
        var seen = false
        for try await message in client.messages {
            guard case .changes(let entries) = InspectorMessage(message) else { continue }
            if entries.contains(where: { $0["seq"]?.integerValue == Int64(seq) }) {
                seen = true
                break
            }
        }
        #expect(seen)

        for (request, code) in [
            (["type": "tune", "key": "nope", "value": 1] as StoreValue, "unknown_key"),
            (["type": "tune", "key": "height", "value": "tall"], "type_mismatch"),
            (["type": "tune", "key": "height", "value": 999], "out_of_range"),
            (["type": "tune", "key": "height"], "bad_request"),
            (["type": "tune", "value": 1], "bad_request"),
        ] {
            let refused = try await client.send(request: request)
            #expect(refused.error?.code == code, "\(request.jsonText())")
        }
        #expect(harness.values["height"] == 64)
        await client.close()
    }

    @Test func withoutTunablesOrReadOnlyTheTuneRequestIsRefused() async throws {
        let none = try TuneHarness(withTunables: false)
        defer { none.stop() }
        let client = try await InspectorClient.connect(to: none.endpoint)
        #expect(try await client.send(request: ["type": "tune", "key": "a", "value": 1]).error?.code == "no_tunables")
        await client.close()

        let readOnly = try TuneHarness { $0.readOnly = true }
        defer { readOnly.stop() }
        let reader = try await InspectorClient.connect(to: readOnly.endpoint)
        #expect(
            try await reader.send(request: ["type": "tune", "key": "height", "value": 1]).error?.code == "read_only")
        await reader.close()
        #expect(readOnly.values == TuneHarness.initial)
    }

    @Test func overApiRequestTheTuneRepliesCarryTheirHTTPStatus() throws {
        let harness = try TuneHarness()
        defer { harness.stop() }
        let (ok, okJSON, _) = try harness.call(
            "POST", "/api/request", body: #"{"id":1,"type":"tune","key":"title","value":"Basket"}"#)
        #expect(ok == 200)
        #expect(okJSON?["result"]?["seq"]?.integerValue != nil)
        #expect(harness.values["title"] == "Basket")
        let (unknown, unknownJSON, _) = try harness.call(
            "POST", "/api/request", body: #"{"id":2,"type":"tune","key":"nope","value":1}"#)
        #expect(unknown == 404)
        #expect(unknownJSON?["error"]?["code"] == "unknown_key")
        let (mismatch, _, _) = try harness.call(
            "POST", "/api/request", body: #"{"id":3,"type":"tune","key":"height","value":"x"}"#)
        #expect(mismatch == 400)
    }

    @Test func theExecutorRunsTuneThroughTheHub() throws {
        let hub = InspectorHub(registry: StoreRegistry())
        hub.start()
        let tunables = try FakeTunables(
            registry: hub.registry, values: TuneHarness.initial, schema: TuneHarness.schema)
        let executor = RequestExecutor(hub: hub, readOnly: false, maxJSONDepth: 512)
        let request = Array(#"{"id":1,"type":"tune","key":"height","value":64}"#.utf8)
        #expect(executor.execute(request).error?.code == .unknownType, "without the feature, no such request")
        let feature = hub.tunablesFeature
        #expect(executor.execute(request).error?.code == .noTunables, "the feature without tunables")
        feature.endpoint = tunables
        let outcome = executor.execute(Array(#"{"id":"t","type":"tune","key":"height","value":64}"#.utf8))
        #expect(outcome.error == nil)
        let reply = try JanssonCodec.decode(outcome.reply)
        #expect(reply == ["type": "reply", "id": "t", "ok": true, "result": ["seq": .integer(Int64(hub.lastSeq))]])
        #expect(tunables.currentValues()["height"] == 64)
    }
}
