import Foundation
import KeyscopeClient
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import Testing

@testable import KeyscopeServer

/// `GET /api/preferences`, `PUT` and `DELETE /api/preferences/:source/:container/:key` and
/// `POST /api/preferences/refresh` on a real server with a fake endpoint.
@Suite(.serialized) struct PreferencesHTTPTests {
    @Test func getAnswersThePanelDescription() throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        let (status, json, response) = try harness.call("GET", "/api/preferences")
        #expect(status == 200)
        #expect(response.header("content-type") == "application/json")
        #expect(response.header("x-content-type-options") == "nosniff")
        #expect(response.header("cross-origin-resource-policy") == "same-origin")
        #expect(json == harness.preferences?.panelDescription())
        #expect(json?["items"]?.arrayValue?.count == 6)
    }

    @Test(
        arguments: [
            ("userDefaults", "com.shop", "theme", "theme", #""light""#, "light"),
            ("userDefaults", "com.shop", "ui%2Ftheme", "ui/theme", "[1, 2]", [1, 2]),
            ("userDefaults", "com.shop", "a%2Fb", "a/b", #"{"x": true}"#, ["x": true]),
            ("userDefaults", "com%2Fshop", "theme", "theme", #""blue""#, "blue"),
            ("userDefaults", "com.shop", "a.b", "a.b", "2.5", .number(2.5)),
            ("userDefaults", "com.shop", "x%5B0%5D", "x[0]", "7", 7),
            ("userDefaults", "com.shop", "x%20y%2B", "x y+", "false", false),
            ("userDefaults", "com.shop", "%E2%9C%93", "✓", #""ok""#, "ok"),
            ("userDefaults", "com.shop", "%2E%2E", "..", "1", 1),
            ("userDefaults", "com.shop", "", "", #""empty key""#, "empty key"),
            ("userDefaults", "com.shop", "c", "c", ##"{"$color": "#FF8800"}"##, .color(StoreColor("#FF8800")!)),
            ("%75serDefaults", "com.shop", "theme", "theme", #""light""#, "light"),
        ] as [(String, String, String, String, String, StoreValue)])
    func putSetsOnePreferenceAndAnswersTheSeqOfItsMirrorChange(
        source: String, container: String, segment: String, key: String, body: String, expected: StoreValue
    ) throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        let decodedContainer = container.replacingOccurrences(of: "%2F", with: "/")
        let ref = PreferenceHarness.ref(.userDefaults, decodedContainer, key)
        let (status, json, _) = try harness.call(
            "PUT", "/api/preferences/\(source)/\(container)/\(segment)", body: #"{"value": \#(body)}"#)
        #expect(status == 200, "\(json?.jsonText() ?? "")")
        let seq = try #require(json?["seq"]?.integerValue)
        #expect(json == ["seq": .integer(seq)])
        #expect(harness.preferences?.mirrored(ref) == expected)
        let change = try #require(harness.hub.entry(seq: Int(seq))?.change)
        #expect(change.storeID == harness.preferences?.mirror(ref)?.id)
        #expect(change.patches.map(\.keyPath) == [StoreKeyPath(segments: [.key(key)])], "one top-level key")
        #expect(change.patches.first?.newValue == expected)
        #expect(harness.hub.lastSeq == Int(seq))
    }

    @Test func theTargetOfPreferencePathReachesTheSamePreference() throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        for ref in [
            PreferenceHarness.ref(.userDefaults, "com/shop", "a/b?c#d%e"),
            PreferenceHarness.ref(.userDefaults, "com.shop", ".."),
            PreferenceHarness.ref(.userDefaults, "com.shop", "a;b&c=d"),
        ] {
            let (status, json, _) = try harness.call("PUT", PreferencePath.target(ref), body: #"{"value": "v"}"#)
            #expect(status == 200, "\(PreferencePath.target(ref)): \(json?.jsonText() ?? "")")
            #expect(harness.preferences?.mirrored(ref) == "v")
        }
    }

    @Test func settingTheValueAlreadyThereAnswersSeqNull() throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        let seq = harness.hub.lastSeq
        let (status, json, _) = try harness.call(
            "PUT", "/api/preferences/userDefaults/com.shop/theme", body: #"{"value": "dark"}"#)
        #expect(status == 200)
        #expect(json == ["seq": .null])
        #expect(harness.hub.lastSeq == seq)
    }

    @Test func aSecretIsWrittenAndOnlyItsRedactionReachesTheMirror() throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        let ref = PreferenceHarness.ref(.secrets, "com.shop.api", "token")
        let (status, json, _) = try harness.call(
            "PUT", "/api/preferences/secrets/com.shop.api/token", body: #"{"value": "new-secret"}"#)
        #expect(status == 200, "\(json?.jsonText() ?? "")")
        let seq = try #require(json?["seq"]?.integerValue)
        #expect(harness.preferences?.secret(ref) == "new-secret")
        #expect(harness.preferences?.mirrored(ref) == "•••• (10)")
        let change = try #require(harness.hub.entry(seq: Int(seq))?.change)
        #expect(change.storeID.description == "app/secrets:com.shop.api")
        #expect(change.patches.first?.newValue == "•••• (10)")
    }

    @Test func deleteRemovesOnePreferenceAndAnswersTheSeqOfItsChange() throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        for (target, ref) in [
            ("/api/preferences/userDefaults/com.shop/a%2Fb", PreferenceHarness.ref(.userDefaults, "com.shop", "a/b")),
            (
                "/api/preferences/userDefaults/com%2Fshop/theme",
                PreferenceHarness.ref(.userDefaults, "com/shop", "theme")
            ),
            ("/api/preferences/secrets/com.shop.api/token", PreferenceHarness.ref(.secrets, "com.shop.api", "token")),
        ] {
            let (status, json, _) = try harness.call("DELETE", target)
            #expect(status == 200, "\(target): \(json?.jsonText() ?? "")")
            let seq = try #require(json?["seq"]?.integerValue)
            #expect(json == ["seq": .integer(seq)])
            #expect(harness.preferences?.mirrored(ref) == nil)
            let change = try #require(harness.hub.entry(seq: Int(seq))?.change)
            #expect(change.storeID == harness.preferences?.mirror(ref)?.id)
            #expect(change.patches.map(\.keyPath) == [StoreKeyPath(segments: [.key(ref.key)])])
        }
        #expect(harness.preferences?.secret(PreferenceHarness.ref(.secrets, "com.shop.api", "token")) == nil)
        let (again, json, _) = try harness.call("DELETE", "/api/preferences/userDefaults/com.shop/a%2Fb")
        #expect(again == 404)
        #expect(TuneHarness.code(json) == "unknown_key")
    }

    @Test(arguments: [
        ("/api/preferences/userDefaults/com.shop", #"{"value": 1}"#, "application/json", 400, "bad_request"),
        ("/api/preferences/userDefaults/com.shop/a/b", #"{"value": 1}"#, "application/json", 400, "bad_request"),
        ("/api/preferences/userDefaults/com.shop/theme/", #"{"value": 1}"#, "application/json", 400, "bad_request"),
        ("/api/preferences/userDefaults", #"{"value": 1}"#, "application/json", 400, "bad_request"),
        ("/api/preferences/", #"{"value": 1}"#, "application/json", 400, "bad_request"),
        ("/api/preferences/keychain/com.shop/theme", #"{"value": 1}"#, "application/json", 400, "bad_request"),
        ("/api/preferences/UserDefaults/com.shop/theme", #"{"value": 1}"#, "application/json", 400, "bad_request"),
        ("/api/preferences/userDefaults//theme", #"{"value": 1}"#, "application/json", 400, "bad_request"),
        ("/api/preferences/userDefaults/com.shop/%zz", #"{"value": 1}"#, "application/json", 400, "bad_request"),
        ("/api/preferences/userDefaults/com.shop/a%0Ab", #"{"value": 1}"#, "application/json", 400, "bad_request"),
        ("/api/preferences/userDefaults/com.shop/%FF", #"{"value": 1}"#, "application/json", 400, "bad_request"),
        ("/x/../api/preferences/userDefaults/com.shop/theme", #"{"value": 1}"#, "application/json", 400, "bad_request"),
        ("/api/preferences/userDefaults/com.shop/theme", "not json", "application/json", 400, "bad_json"),
        (
            "/api/preferences/userDefaults/com.shop/theme", #"{"value": {"$color": "red"}}"#, "application/json", 400,
            "bad_json"
        ),
        ("/api/preferences/userDefaults/com.shop/theme", "[1]", "application/json", 400, "bad_request"),
        ("/api/preferences/userDefaults/com.shop/theme", #""light""#, "application/json", 400, "bad_request"),
        ("/api/preferences/userDefaults/com.shop/theme", "{}", "application/json", 400, "bad_request"),
        ("/api/preferences/userDefaults/com.shop/theme", #"{"val": 1}"#, "application/json", 400, "bad_request"),
        ("/api/preferences/userDefaults/com.shop/theme", "", "application/json", 400, "bad_request"),
        ("/api/preferences/userDefaults/com.shop/theme", #"{"value": 1}"#, "text/plain", 415, "unsupported_media_type"),
        ("/api/preferences/userDefaults/com.shop/theme", #"{"value": 1}"#, "", 415, "unsupported_media_type"),
        ("/api/preferences/userDefaults/nope/theme", #"{"value": 1}"#, "application/json", 404, "unknown_key"),
        ("/api/preferences/secrets/com.shop/theme", #"{"value": "x"}"#, "application/json", 404, "unknown_key"),
        (
            "/api/preferences/userDefaults/com.shop/theme", #"{"value": null}"#, "application/json", 400,
            "type_mismatch"
        ),
        ("/api/preferences/secrets/com.shop.api/token", #"{"value": 5}"#, "application/json", 400, "type_mismatch"),
        ("/api/preferences/userDefaults/com.shop/refused", #"{"value": 1}"#, "application/json", 400, "bad_request"),
    ])
    func badPutsGetTheirStatusAndCodeAndChangeNothing(
        target: String, body: String, contentType: String, status: Int, code: String
    ) throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        let before = harness.state
        let (answered, json, _) = try harness.call("PUT", target, body: body, contentType: contentType)
        #expect(answered == status, "\(json?.jsonText() ?? "no JSON")")
        #expect(TuneHarness.code(json) == code)
        #expect(json?["error"]?["message"]?.stringValue?.isEmpty == false)
        #expect(harness.state == before)
    }

    @Test func anUnknownSourceIsRefusedNamingBothSources() throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        for method in ["PUT", "DELETE"] {
            let (status, json, _) = try harness.call(
                method, "/api/preferences/keychain/com.shop/theme", body: method == "PUT" ? #"{"value": 1}"# : nil)
            #expect(status == 400)
            let message = try #require(json?["error"]?["message"]?.stringValue)
            #expect(message.contains("keychain") && message.contains("userDefaults") && message.contains("secrets"))
        }
        let (status, json, _) = try harness.call(
            "PUT", "/api/preferences/userDefaults/com.shop/a/b", body: #"{"value": 1}"#)
        #expect(status == 400)
        #expect(json?["error"]?["message"]?.stringValue?.contains("%2F") == true, "says how to send a /")
    }

    @Test(arguments: [
        ("/api/preferences/userDefaults/com.shop", 400, "bad_request"),
        ("/api/preferences/userDefaults/com.shop/a/b", 400, "bad_request"),
        ("/api/preferences/keychain/com.shop/theme", 400, "bad_request"),
        ("/api/preferences/userDefaults/com.shop/%zz", 400, "bad_request"),
        ("/api/preferences/userDefaults/com.shop/missing", 404, "unknown_key"),
        ("/api/preferences/userDefaults/nope/theme", 404, "unknown_key"),
    ])
    func badDeletesGetTheirStatusAndCodeAndChangeNothing(target: String, status: Int, code: String) throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        let before = harness.state
        let (answered, json, _) = try harness.call("DELETE", target)
        #expect(answered == status, "\(json?.jsonText() ?? "no JSON")")
        #expect(TuneHarness.code(json) == code)
        #expect(harness.state == before)
    }

    @Test func aBodyOverTheLimitIs413() throws {
        let harness = try PreferenceHarness { $0.maxBodyBytes = 1024 }
        defer { harness.stop() }
        let before = harness.state
        let big = #"{"value": ""# + String(repeating: "x", count: 2000) + #""}"#
        let (status, json, _) = try harness.call("PUT", "/api/preferences/userDefaults/com.shop/theme", body: big)
        #expect(status == 413)
        #expect(TuneHarness.code(json) == "too_large")
        #expect(harness.state == before)
    }

    @Test(
        arguments: [
            (nil, "application/json", 200, nil), ("", "application/json", 200, nil),
            ("{}", "application/json", 200, nil),
            (" { } ", "application/json; charset=utf-8", 200, nil),
            (
                #"{"source": "secrets"}"#, "application/json", 400,
                "bad_request"
            ),
            ("[]", "application/json", 400, "bad_request"), ("nope", "application/json", 400, "bad_json"),
            ("{}", "text/plain", 415, "unsupported_media_type"),
        ] as [(String?, String, Int, String?)])
    func refreshRescansAndAnswersSeqNull(body: String?, contentType: String, status: Int, code: String?) throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        let seq = harness.hub.lastSeq
        let (answered, json, _) = try harness.call(
            "POST", "/api/preferences/refresh", body: body, contentType: contentType)
        #expect(answered == status, "\(json?.jsonText() ?? "no JSON")")
        if let code {
            #expect(TuneHarness.code(json) == code)
            #expect(harness.preferences?.refreshCount == 0)
        } else {
            #expect(json == ["seq": .null])
            #expect(harness.preferences?.refreshCount == 1)
        }
        #expect(harness.hub.lastSeq == seq)
    }

    @Test func aRequestLineSplitOverSegmentsIsStillReadAsSent() throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        let port = try #require(harness.base.server.port)
        let token = try #require(harness.base.server.token)
        let response = try sendInPieces(
            [
                "DELETE /api/preferences/userDefaults/com.shop/a%2F", "b HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n",
                "Authorization: Bearer \(token)\r\n\r\n",
            ],
            port: port, pauseMilliseconds: 60)
        #expect(response.hasPrefix("HTTP/1.1 200"), "\(response)")
        #expect(harness.preferences?.mirrored(PreferenceHarness.ref(.userDefaults, "com.shop", "a/b")) == nil)
        #expect(harness.preferences?.mirrored(PreferenceHarness.ref(.userDefaults, "com.shop", "theme")) == "dark")
    }

    @Test func requestsThatAnnounceNoBodyAreAnsweredAtOnce() throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        let port = try #require(harness.base.server.port)
        let token = try #require(harness.base.server.token)
        let head = "HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n"
        let json = "Content-Type: application/json\r\n"
        for (request, status, fragment) in [
            ("PUT /api/preferences/userDefaults/com.shop/theme \(head)\(json)\r\n", 400, "the body is empty"),
            ("POST /api/preferences/refresh \(head)\r\n", 200, #"{"seq":null}"#),
            ("POST /api/watches/refresh \(head)\r\n", 200, #"{"ok":true}"#),
            ("POST /api/request \(head)\(json)\r\n", 400, "bad_json"),
            ("POST /tune \(head)\(json)\r\n", 400, "bad_json"),
        ] {
            let response = try sendInPieces([request], port: port, pauseMilliseconds: 0)
            #expect(response.hasPrefix("HTTP/1.1 \(status)"), "\(request): \(response)")
            #expect(response.contains(fragment), "\(request): \(response)")
        }
        #expect(harness.preferences?.refreshCount == 1)
        #expect(harness.watches?.refreshCount == 1)
        #expect(harness.preferences?.mirrored(PreferenceHarness.ref("theme")) == "dark")
    }

    @Test func theTokenHostAndOriginRulesApply() throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        let port = try #require(harness.base.server.port)
        let before = harness.state
        let requests: [(String, String, String?)] = [
            ("GET", "/api/preferences", nil), ("PUT", "/api/preferences/userDefaults/com.shop/theme", #"{"value": 1}"#),
            ("DELETE", "/api/preferences/userDefaults/com.shop/theme", nil), ("POST", "/api/preferences/refresh", "{}"),
            ("PUT", "/api/preferences/nope", nil), ("GET", "/api/watches", nil), ("POST", "/api/watches/refresh", nil),
        ]
        for (method, target, body) in requests {
            let (status, json, response) = try harness.call(method, target, body: body, token: "")
            #expect(status == 401, "\(method) \(target)")
            #expect(TuneHarness.code(json) == "unauthorized")
            #expect(response.header("www-authenticate") == "Bearer")
            #expect(response.header("x-content-type-options") == "nosniff")
            #expect(response.header("cross-origin-resource-policy") == "same-origin")
            #expect(try harness.call(method, target, body: body, token: "wrong-token-0123456789").status == 401)
            let (badHost, _, _) = try harness.call(method, target, body: body, headers: [("Host", "evil.example")])
            #expect(badHost == 403, "\(method) \(target)")
        }
        for (method, target, body) in requests where method != "GET" {
            let (status, json, response) = try harness.call(
                method, target, body: body, headers: [("Origin", "http://evil.example")])
            #expect(status == 403, "\(method) \(target)")
            #expect(TuneHarness.code(json) == "forbidden")
            #expect(response.header("access-control-allow-origin") == nil)
        }
        #expect(harness.state == before)
        #expect(harness.preferences?.refreshCount == 0)
        #expect(harness.watches?.refreshCount == 0)

        let (goodOrigin, _, _) = try harness.call(
            "PUT", "/api/preferences/userDefaults/com.shop/theme", body: #"{"value": "blue"}"#,
            headers: [("Origin", "http://127.0.0.1:\(port)")])
        #expect(goodOrigin == 200)
        let token = try #require(harness.base.server.token)
        let (byQuery, json, _) = try harness.call(
            "DELETE", "/api/preferences/userDefaults/com.shop/theme?token=\(token)", token: "")
        #expect(byQuery == 200)
        #expect(json?["seq"]?.integerValue != nil)
        #expect(harness.preferences?.mirrored(PreferenceHarness.ref("theme")) == nil)
    }

    @Test func aReadOnlyServerRefusesEditsBeforeValidatingThemAndStillRefreshes() throws {
        let harness = try PreferenceHarness { $0.readOnly = true }
        defer { harness.stop() }
        let before = harness.state
        for (method, target, body, type) in [
            ("PUT", "/api/preferences/userDefaults/com.shop/theme", #"{"value": "blue"}"#, "application/json"),
            ("PUT", "/api/preferences/keychain/a/b/c", "not json", "text/plain"),
            ("PUT", "/api/preferences/userDefaults/nope/theme", nil, "application/json"),
            ("DELETE", "/api/preferences/userDefaults/com.shop/theme", nil, "application/json"),
            ("DELETE", "/api/preferences/nope", nil, "application/json"),
        ] as [(String, String, String?, String)] {
            let (status, json, _) = try harness.call(method, target, body: body, contentType: type)
            #expect(status == 403, "\(method) \(target)")
            #expect(TuneHarness.code(json) == "read_only")
        }
        #expect(harness.state == before)
        let (refreshed, json, _) = try harness.call("POST", "/api/preferences/refresh")
        #expect(refreshed == 200)
        #expect(json == ["seq": .null])
        #expect(harness.preferences?.refreshCount == 1)
        #expect(try harness.call("POST", "/api/preferences/refresh", body: "{}").status == 200)
        #expect(try harness.call("GET", "/api/preferences").status == 200)
        #expect(try harness.call("POST", "/api/watches/refresh").status == 200)
        #expect(harness.watches?.refreshCount == 1)
    }

    @Test func editingTurnedOffInTheEndpointIs403ReadOnly() throws {
        let harness = try PreferenceHarness(editing: false)
        defer { harness.stop() }
        let before = harness.state
        let (put, putJSON, _) = try harness.call(
            "PUT", "/api/preferences/userDefaults/com.shop/theme", body: #"{"value": "blue"}"#)
        #expect(put == 403)
        #expect(TuneHarness.code(putJSON) == "read_only")
        let (delete, deleteJSON, _) = try harness.call("DELETE", "/api/preferences/userDefaults/com.shop/theme")
        #expect(delete == 403)
        #expect(TuneHarness.code(deleteJSON) == "read_only")
        #expect(harness.state == before)
        #expect(try harness.call("POST", "/api/preferences/refresh").status == 200)
    }

    @Test func withoutPreferencesEveryEndpointIs404NoPreferences() throws {
        let harness = try PreferenceHarness(withPreferences: false)
        defer { harness.stop() }
        for (method, target, body) in [
            ("GET", "/api/preferences", nil), ("PUT", "/api/preferences/userDefaults/com.shop/theme", #"{"value": 1}"#),
            ("DELETE", "/api/preferences/userDefaults/com.shop/theme", nil), ("POST", "/api/preferences/refresh", nil),
            ("POST", "/api/preferences/refresh", "{}"),
        ] as [(String, String, String?)] {
            let (status, json, _) = try harness.call(method, target, body: body)
            #expect(status == 404, "\(method) \(target)")
            #expect(TuneHarness.code(json) == "no_preferences")
            #expect(json?["error"]?["message"]?.stringValue?.contains("PreferencesFeature") == true)
        }
        #expect(try harness.call("GET", "/api/watches").status == 200, "watches do not need preferences")
    }

    @Test func otherMethodsAre405WithAllow() throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        let before = harness.state
        for (method, target, allow) in [
            ("POST", "/api/preferences", "GET, HEAD"), ("PUT", "/api/preferences", "GET, HEAD"),
            ("DELETE", "/api/preferences", "GET, HEAD"), ("GET", "/api/preferences/refresh", "POST"),
            ("PUT", "/api/preferences/refresh", "POST"),
            (
                "GET", "/api/preferences/userDefaults/com.shop/theme",
                "PUT, DELETE"
            ),
            ("POST", "/api/preferences/userDefaults/com.shop/theme", "PUT, DELETE"),
            ("PATCH", "/api/preferences/userDefaults/com.shop/theme", "PUT, DELETE"),
        ] {
            let (status, json, response) = try harness.call(method, target, body: method == "GET" ? nil : "{}")
            #expect(status == 405, "\(method) \(target)")
            #expect(TuneHarness.code(json) == "method_not_allowed")
            #expect(response.header("allow") == allow)
        }
        #expect(harness.state == before)
        #expect(harness.preferences?.refreshCount == 0)
    }

    @Test func overApiRequestThePreferenceRepliesCarryTheirHTTPStatus() throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        let (ok, okJSON, _) = try harness.call(
            "POST", "/api/request",
            body:
                #"{"id":1,"type":"preference","op":"set","source":"userDefaults","container":"com.shop","key":"theme","value":"blue"}"#
        )
        #expect(ok == 200)
        let seq = try #require(okJSON?["result"]?["seq"]?.integerValue)
        #expect(harness.hub.entry(seq: Int(seq))?.change?.storeID.description == "app/userPrefs:com.shop")
        for (body, status, code) in [
            (
                #"{"id":2,"type":"preference","op":"delete","source":"userDefaults","container":"nope","key":"k"}"#,
                404,
                "unknown_key"
            ),
            (
                #"{"id":3,"type":"preference","op":"set","source":"userDefaults","container":"com.shop","key":"k"}"#,
                400,
                "bad_request"
            ),
            (
                #"{"id":4,"type":"preference","op":"set","source":"userDefaults","container":"com.shop","key":"k","value":null}"#,
                400, "type_mismatch"
            ),
        ] {
            let (answered, json, _) = try harness.call("POST", "/api/request", body: body)
            #expect(answered == status, "\(body)")
            #expect(json?["error"]?["code"]?.stringValue == code)
        }
        let (refreshed, refreshJSON, _) = try harness.call(
            "POST", "/api/request", body: #"{"id":5,"type":"preference","op":"refresh"}"#)
        #expect(refreshed == 200)
        #expect(refreshJSON?["result"] == ["seq": .null])

        let none = try PreferenceHarness(withPreferences: false)
        defer { none.stop() }
        let (missing, missingJSON, _) = try none.call(
            "POST", "/api/request", body: #"{"id":6,"type":"preference","op":"refresh"}"#)
        #expect(missing == 404)
        #expect(missingJSON?["error"]?["code"] == "no_preferences")
    }

    @Test(arguments: [
        (HubError.Code.noPreferences, 404), (.noWatches, 404), (.unknownKey, 404), (.noTunables, 404),
        (.unknownStore, 404), (.readOnly, 403), (.tooLarge, 413), (.conflict, 409), (.badRequest, 400),
        (.typeMismatch, 400), (.badJSON, 400),
    ])
    func errorCodesMapToTheirStatus(code: HubError.Code, status: Int) {
        #expect(code.httpStatus == status)
    }
}
