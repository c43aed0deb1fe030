import KeyscopeClient
import KeyscopeCore
import KeyscopeInspector
import Testing

@testable import KeyscopeServer

/// The tunables through the WebSocket alone (what a fleet dashboard carries to an instance): `tunables` reads them
/// all, `tune` sets one from a text as `PUT /tune/:key/:value` reads it, and replaces them all as `POST /tune` does.
@Suite(.serialized) struct TunablesOverWebSocketTests {
    @Test func theTunablesRequestReadsWhatGetTuneReads() async throws {
        let harness = try TuneHarness()
        defer { harness.stop() }
        let client = try await InspectorClient.connect(to: harness.endpoint)
        let reply = try await client.send(request: ["type": "tunables"])
        #expect(reply.result == .object(harness.values), "\(reply.message.jsonText())")
        await client.close()
    }

    @Test func aTuneWithTextIsTypedAsThePathFormTypesIt() async throws {
        let harness = try TuneHarness()
        defer { harness.stop() }
        let client = try await InspectorClient.connect(to: harness.endpoint)
        let number = try await client.send(request: ["type": "tune", "key": "free", "text": "64"])
        #expect(number.result?["value"] == 64, "\(number.message.jsonText())")
        #expect(number.seq != nil)
        #expect(harness.values["free"] == 64)
        let text = try await client.send(request: ["type": "tune", "key": "free", "text": "https://x.example/a"])
        #expect(harness.values["free"] == "https://x.example/a", "\(text.message.jsonText())")
        let both = try await client.send(request: ["type": "tune", "key": "free", "text": "1", "value": 1])
        #expect(both.error?.code == "bad_request")
        await client.close()
    }

    @Test func aTuneReplaceReplacesEveryTunableInOneChange() async throws {
        let harness = try TuneHarness()
        defer { harness.stop() }
        let client = try await InspectorClient.connect(to: harness.endpoint)
        var values = harness.values
        values["free"] = "replaced"
        let reply = try await client.send(request: ["type": "tune", "op": "replace", "values": .object(values)])
        #expect(reply.result?["count"]?.integerValue == Int64(values.count), "\(reply.message.jsonText())")
        #expect(harness.values == values)
        let seq = Int(try #require(reply.seq))
        #expect(harness.hub.entry(seq: seq)?.change != nil)
        let missing = try await client.send(request: ["type": "tune", "op": "replace"])
        #expect(missing.error?.code == "bad_json")
        let refused = try await client.send(request: ["type": "tune", "op": "replace", "values": [1, 2]])
        #expect(refused.error?.code == "bad_json")
        #expect(harness.values == values)
        await client.close()
    }

    @Test func aReadOnlyServerStillAnswersTheReadButNotTheReplace() async throws {
        let harness = try TuneHarness { $0.readOnly = true }
        defer { harness.stop() }
        let client = try await InspectorClient.connect(to: harness.endpoint)
        #expect(try await client.send(request: ["type": "tunables"]).ok)
        let refused = try await client.send(request: ["type": "tune", "op": "replace", "values": [:]])
        #expect(refused.error?.code == "read_only")
        #expect(harness.values == TuneHarness.initial)
        await client.close()
    }
}
