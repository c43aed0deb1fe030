import KeyscopeClient
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopePreferences
import KeyscopeProtocol
import Testing

@testable import KeyscopeServer

/// The WebSocket `preference` request: over a real WebSocket, and through the parser and the executor.
@Suite(.serialized) struct PreferenceRequestTests {
    static func set(_ key: String, _ value: StoreValue, container: String = "com.shop") -> StoreValue {
        [
            "type": "preference", "op": "set", "source": "userDefaults", "container": .string(container),
            "key": .string(key), "value": value,
        ]
    }

    @Test func aSetRepliesWithTheSeqOfItsMirrorChangeWhichStreamsLikeAnyOther() async throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        let client = try await InspectorClient.connect(to: harness.endpoint)
        let reply = try await client.send(request: Self.set("ui/theme", "light"))
        let seq = Int(try #require(reply.seq, "\(reply.message.jsonText())"))
        #expect(reply.message["result"] == ["seq": .integer(Int64(seq))])
        let ref = PreferenceHarness.ref("ui/theme")
        #expect(harness.preferences?.mirrored(ref) == "light")
        let change = try #require(harness.hub.entry(seq: seq)?.change)
        #expect(change.storeID == harness.preferences?.mirror(ref)?.id)
        #expect(change.patches.map(\.keyPath) == [StoreKeyPath(segments: [.key("ui/theme")])])

        var seen = false
        for try await message in client.messages {
            guard case .changes(let entries) = InspectorMessage(message) else { continue }
            if entries.contains(where: { $0["seq"]?.integerValue == Int64(seq) }) {
                seen = true
                break
            }
        }
        #expect(seen)
        await client.close()
    }

    @Test func deleteAndRefreshReply() async throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        let client = try await InspectorClient.connect(to: harness.endpoint)
        let deleted = try await client.send(request: [
            "type": "preference", "op": "delete", "source": "secrets", "container": "com.shop.api", "key": "token",
        ])
        let seq = Int(try #require(deleted.seq, "\(deleted.message.jsonText())"))
        #expect(harness.hub.entry(seq: seq)?.change?.storeID.description == "app/secrets:com.shop.api")
        #expect(harness.preferences?.mirrored(PreferenceHarness.ref(.secrets, "com.shop.api", "token")) == nil)

        let unchanged = try await client.send(request: Self.set("theme", "dark"))
        #expect(unchanged.ok)
        #expect(unchanged.message["result"] == ["seq": .null], "the value was already there")

        let refreshed = try await client.send(request: ["type": "preference", "op": "refresh"])
        #expect(refreshed.ok)
        #expect(refreshed.message["result"] == ["seq": .null])
        #expect(harness.preferences?.refreshCount == 1)
        await client.close()
    }

    @Test func everyMalformedFieldGetsAnErrorThatSaysWhatToFixAndTheConnectionStaysUp() async throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        let client = try await InspectorClient.connect(to: harness.endpoint)
        let before = harness.state
        let cases: [(StoreValue, String, String)] = [
            (["type": "preference"], "bad_request", "\"op\""),
            (["type": "preference", "op": 1], "bad_request", "\"op\""),
            (["type": "preference", "op": "rename"], "bad_request", "set, delete or refresh"),
            (
                ["type": "preference", "op": "set", "container": "com.shop", "key": "k", "value": 1], "bad_request",
                "\"source\""
            ),
            (
                ["type": "preference", "op": "set", "source": 1, "container": "com.shop", "key": "k", "value": 1],
                "bad_request", "userDefaults or secrets"
            ),
            (
                [
                    "type": "preference", "op": "set", "source": "keychain", "container": "com.shop", "key": "k",
                    "value": 1,
                ],
                "bad_request", "userDefaults or secrets"
            ),
            (
                ["type": "preference", "op": "set", "source": "userDefaults", "key": "k", "value": 1], "bad_request",
                "\"container\""
            ),
            (
                [
                    "type": "preference", "op": "set", "source": "userDefaults", "container": ["a"], "key": "k",
                    "value": 1,
                ],
                "bad_request", "\"container\""
            ),
            (
                ["type": "preference", "op": "set", "source": "userDefaults", "container": "", "key": "k", "value": 1],
                "bad_request", "container"
            ),
            (
                ["type": "preference", "op": "delete", "source": "userDefaults", "container": "com.shop"],
                "bad_request",
                "\"key\""
            ),
            (
                [
                    "type": "preference", "op": "set", "source": "userDefaults", "container": "com.shop", "key": 5,
                    "value": 1,
                ], "bad_request", "\"key\""
            ),
            (
                ["type": "preference", "op": "set", "source": "userDefaults", "container": "com.shop", "key": "k"],
                "bad_request", "\"value\""
            ),
            (
                [
                    "type": "preference", "op": "delete", "source": "userDefaults", "container": "com.shop",
                    "key": "theme",
                    "value": 1,
                ], "bad_request", "\"value\""
            ),
            (["type": "preference", "op": "refresh", "source": "userDefaults"], "bad_request", "\"source\""),
            (
                [
                    "type": "preference", "op": "set", "source": "userDefaults", "container": "nope", "key": "k",
                    "value": 1,
                ],
                "unknown_key", "nope"
            ),
            (
                [
                    "type": "preference", "op": "delete", "source": "userDefaults", "container": "com.shop",
                    "key": "gone",
                ],
                "unknown_key", "gone"
            ),
            (Self.set("theme", .null), "type_mismatch", "null"),
            (Self.set("refused", 1), "bad_request", "refused"),
            (["type": "preferences", "op": "refresh"], "unknown_type", "preference"),
        ]
        for (request, code, hint) in cases {
            let reply = try await client.send(request: request)
            #expect(reply.error?.code == code, "\(request.jsonText()): \(reply.message.jsonText())")
            #expect(reply.error?.message.contains(hint) == true, "\(request.jsonText()): \(reply.message.jsonText())")
        }
        #expect(harness.state == before)

        let fine = try await client.send(request: Self.set("theme", "blue"))
        #expect(fine.seq != nil, "the connection is still up and serves requests")
        await client.close()
    }

    @Test func aReadOnlyServerRefusesSetsAndDeletesBeforeValidatingButRefreshes() async throws {
        let harness = try PreferenceHarness { $0.readOnly = true }
        defer { harness.stop() }
        let client = try await InspectorClient.connect(to: harness.endpoint)
        let before = harness.state
        for request: StoreValue in [
            Self.set("theme", "blue"), ["type": "preference", "op": "delete"], ["type": "preference"],
            ["type": "preference", "op": "nope", "source": "keychain"],
        ] {
            #expect(try await client.send(request: request).error?.code == "read_only", "\(request.jsonText())")
        }
        #expect(harness.state == before)
        let refreshed = try await client.send(request: ["type": "preference", "op": "refresh"])
        #expect(refreshed.ok, "\(refreshed.message.jsonText())")
        #expect(harness.preferences?.refreshCount == 1)
        await client.close()
    }

    @Test func withoutPreferencesTheRequestIsNoPreferences() async throws {
        let harness = try PreferenceHarness(withPreferences: false)
        defer { harness.stop() }
        let client = try await InspectorClient.connect(to: harness.endpoint)
        for request in [
            Self.set("theme", "blue"), ["type": "preference", "op": "refresh"],
            ["type": "preference", "op": "delete", "source": "secrets", "container": "c", "key": "k"],
        ] as [StoreValue] {
            #expect(try await client.send(request: request).error?.code == "no_preferences", "\(request.jsonText())")
        }
        await client.close()
    }

    @Test func theParserHandsPreferenceRequestsToTheFeatureAndRefusesOnlyItsWrites() throws {
        let feature = PreferencesFeature()
        func parse(_ text: String, refusing: HubError? = nil) -> (
            id: StoreValue, request: Result<ClientRequest, HubError>
        ) {
            ClientRequest.parse(Array(text.utf8), maxDepth: 64, features: feature.requests, refusingWrites: refusing)
        }
        let set = parse(
            #"{"type":"preference","op":"set","source":"secrets","container":"svc","key":"a/b","value":"x"}"#)
        guard case .success(.feature(let request, let members)) = set.request else {
            Issue.record("a preference request is not handed to the feature: \(set.request)")
            return
        }
        #expect(request.type == "preference")
        #expect(members.peekString("key") == "a/b")
        #expect(try members.value() == "x")

        let invalid = parse(
            #"{"type":"preference","op":"set","source":"userDefaults","container":"c","key":"k","value":{"$color":"red"}}"#
        )
        if case .success(.feature(let request, let members)) = invalid.request {
            do {
                _ = try request.handle(members)
                Issue.record("an invalid value was accepted")
            } catch {
                #expect(error.code == .typeMismatch)
            }
        } else {
            Issue.record("not handed to the feature: \(invalid.request)")
        }

        let readOnly = HubError(code: .readOnly, message: "read-only")
        let refused = parse(#"{"id":1,"type":"preference","op":"set"}"#, refusing: readOnly)
        #expect(refused.id == 1)
        if case .failure(let error) = refused.request { #expect(error == readOnly) } else { Issue.record("accepted") }
        let refresh = parse(#"{"type":"preference","op":"refresh"}"#, refusing: readOnly)
        if case .success(.feature) = refresh.request {
        } else {
            Issue.record("a refresh was refused: \(refresh.request)")
        }
    }

    @Test func theExecutorRunsPreferencesThroughTheHub() throws {
        let hub = InspectorHub(registry: StoreRegistry())
        hub.start()
        let executor = RequestExecutor(hub: hub, readOnly: false, maxJSONDepth: 512)
        let request = Array(
            #"{"id":"p","type":"preference","op":"set","source":"userDefaults","container":"com.shop","key":"theme","value":"blue"}"#
                .utf8)
        #expect(executor.execute(request).error?.code == .unknownType, "without the feature, no such request")
        _ = hub.preferencesFeature
        #expect(executor.execute(request).error?.code == .noPreferences, "the feature without preferences")
        let preferences = try FakePreferences(registry: hub.registry, suites: PreferenceHarness.suites)
        hub.preferencesFeature.endpoint = preferences
        let outcome = executor.execute(request)
        #expect(outcome.error == nil)
        let reply = try JanssonCodec.decode(outcome.reply)
        #expect(reply == ["type": "reply", "id": "p", "ok": true, "result": ["seq": .integer(Int64(hub.lastSeq))]])
        #expect(hub.entry(seq: hub.lastSeq)?.change?.storeID == preferences.mirror(PreferenceHarness.ref("theme"))?.id)
        #expect(preferences.mirrored(PreferenceHarness.ref("theme")) == "blue")
    }
}
