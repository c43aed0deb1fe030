import Foundation
import KeyscopeClient
import KeyscopeCore
import KeyscopeInspector
import Testing

@testable import KeyscopeServer

/// `GET /tune`, `PUT /tune/:key/:value`, `POST /tune` and `GET /api/tunables` on a real server with a fake endpoint.
@Suite(.serialized) struct TunablesHTTPTests {
    @Test func getTuneAnswersEveryTunableAsOneObject() throws {
        let harness = try TuneHarness()
        defer { harness.stop() }
        let (status, _, response) = try harness.call("GET", "/tune")
        #expect(status == 200)
        #expect(response.header("content-type") == "application/json")
        #expect(response.header("x-content-type-options") == "nosniff")
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == ##"{"accent":{"$color":"#FF8800"},"free":"x","height":48,"ratio":1.5,"title":"Cart"}"##)
    }

    @Test(arguments: [
        ("5", StoreValue.integer(5)), ("-0", .integer(0)), ("-42", .integer(-42)), ("2.5", .number(2.5)),
        ("1e3", .number(1000)), ("1E-2", .number(0.01)), ("-0.0", .number(-0.0)),
        ("99999999999999999999", .number(1e20)), ("9223372036854775807", .integer(.max)), ("nan", "nan"),
        ("inf", "inf"), ("0x10", "0x10"), ("+1", "+1"), ("%2B1", "+1"), ("01", "01"), (".5", ".5"), ("1.", "1."),
        ("%23ff8800", "#ff8800"), ("true", "true"), ("null", "null"), ("a%20b", "a b"), ("a+b", "a+b"),
        ("%E2%9C%93", "✓"), ("%25", "%"), ("a%2Fb", "a/b"), ("..", ".."), ("%2E", "."), ("", ""),
        // The value is the rest of the path after the key: separators, %2F and // all stay in it.
        ("a/b", "a/b"), ("https:%2F%2Fexample.com%2Fhelp", "https://example.com/help"),
        ("https://example.com/help", "https://example.com/help"), ("1/2", "1/2"),
    ])
    func putReadsTheValueByTheJSONNumberGrammar(segment: String, expected: StoreValue) throws {
        let harness = try TuneHarness()
        defer { harness.stop() }
        let (status, json, _) = try harness.call("PUT", "/tune/free/\(segment)")
        #expect(status == 200, "\(json?.jsonText() ?? "")")
        let seq = try #require(json?["seq"]?.integerValue)
        #expect(json == ["ok": true, "seq": .integer(seq), "key": "free", "value": expected])
        #expect(harness.values["free"] == expected)
        // The change is in the hub's log under the seq the reply gave: a set of the top-level key.
        let change = try #require(harness.hub.entry(seq: Int(seq))?.change)
        #expect(change.storeID == harness.tunables?.storeID)
        #expect(change.patches.map(\.keyPath) == [StoreKeyPath(segments: [.key("free")])])
        #expect(change.patches.first?.newValue == expected)
    }

    @Test(arguments: [("a.b", "a.b"), ("x%5B0%5D", "x[0]"), ("x[0]", "x[0]")])
    func aKeyIsOneSegmentEvenWithDotsOrBrackets(segment: String, key: String) throws {
        let harness = try TuneHarness()
        defer { harness.stop() }
        let (status, json, _) = try harness.call("PUT", "/tune/\(segment)/7")
        #expect(status == 200, "\(json?.jsonText() ?? "")")
        #expect(json?["key"] == .string(key))
        #expect(harness.values[key] == 7)
        #expect(harness.tunables?.store.snapshot()[key] == 7, "a top-level key, not a path")
    }

    @Test(arguments: [
        ("/tune/free/%zz/b", 400, "bad_request"), ("/tune/free", 400, "bad_request"), ("/tune/", 400, "bad_request"),
        ("/tune//5", 400, "bad_request"), ("/tune/free/%zz", 400, "bad_request"), ("/tune/free/%2", 400, "bad_request"),
        ("/tune/free/a%0Ab", 400, "bad_request"), ("/tune/free/%00", 400, "bad_request"),
        ("/tune/a%2Fb/1", 400, "bad_request"), ("/tune/\(String(repeating: "k", count: 257))/1", 400, "bad_request"),
        ("/tune/a%C2%85b/1", 400, "bad_request"),
        ("/tune/free/%FF", 400, "bad_request"), ("/tune/free/1e999", 400, "bad_request"),
        ("/tune/nope/1", 404, "unknown_key"), ("/tune/height/tall", 400, "type_mismatch"),
        ("/tune/height/2.0", 400, "type_mismatch"), ("/tune/height/201", 400, "out_of_range"),
        ("/tune/accent/red", 400, "type_mismatch"), ("/x/../tune/free/1", 400, "bad_request"),
    ])
    func badPutsGetTheirStatusAndCodeAndChangeNothing(target: String, status: Int, code: String) throws {
        let harness = try TuneHarness()
        defer { harness.stop() }
        let (before, seq) = (harness.values, harness.hub.lastSeq)
        let (answered, json, _) = try harness.call("PUT", target)
        #expect(answered == status, "\(json?.jsonText() ?? "no JSON")")
        #expect(TuneHarness.code(json) == code)
        #expect(json?["error"]?["message"]?.stringValue?.isEmpty == false)
        #expect(harness.values == before)
        #expect(harness.hub.lastSeq == seq)
    }

    @Test func aRequestLineSplitOverSegmentsIsStillReadAsSent() throws {
        let harness = try TuneHarness()
        defer { harness.stop() }
        let port = try #require(harness.server.port)
        let token = try #require(harness.server.token)
        let response = try sendInPieces(
            [
                "PUT /tune/free/x%2", "Fy%20z HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n",
                "Authorization: Bearer \(token)\r\n\r\n",
            ],
            port: port, pauseMilliseconds: 60)
        #expect(response.hasPrefix("HTTP/1.1 200"), "\(response)")
        #expect(harness.values["free"] == "x/y z")
    }

    @Test func postReplacesEveryTunableInOneChange() throws {
        let harness = try TuneHarness()
        defer { harness.stop() }
        let body = ##"{"height": 64, "ratio": 1.5, "title": "Basket", "accent": {"$color": "#FF8800"}, "extra": [1]}"##
        let (status, json, _) = try harness.call("POST", "/tune", body: body)
        #expect(status == 200, "\(json?.jsonText() ?? "")")
        let seq = try #require(json?["seq"]?.integerValue)
        #expect(json == ["ok": true, "seq": .integer(seq), "count": 5])
        #expect(
            harness.values == [
                "height": 64, "ratio": 1.5, "title": "Basket", "accent": .color(StoreColor("#FF8800")!), "extra": [1],
            ])
        let change = try #require(harness.hub.entry(seq: Int(seq))?.change)
        #expect(change.transactionID != nil)
        // Only what changed: free removed, extra added, height and title set; ratio and accent untouched.
        #expect(
            Set(change.patches.map(\.keyPath))
                == Set(
                    ["free", "height", "title", "extra"].map {
                        StoreKeyPath(segments: [.key($0)])
                    }))
        #expect(harness.hub.lastSeq == Int(seq))

        let (again, same, _) = try harness.call("POST", "/tune", body: body)
        #expect(again == 200)
        #expect(same?["seq"] == .null, "the same set again changes nothing")
        #expect(harness.hub.lastSeq == Int(seq))
    }

    @Test(arguments: [
        ("not json", "application/json", 400, "bad_json"), ("[1, 2]", "application/json", 400, "bad_json"),
        ("", "application/json", 400, "bad_json"), (#"{"height": 1}"#, "text/plain", 415, "unsupported_media_type"),
        (#"{"height": "tall"}"#, "application/json", 400, "type_mismatch"),
        (#"{"height": 500}"#, "application/json", 400, "out_of_range"),
        (#"{"nope": 1}"#, "application/json", 404, "unknown_key"),
        (#"{"free": 1}"#, "application/json; charset=utf-8", 400, "bad_request"),
        (#"{"a": {"$color": "red"}}"#, "application/json", 400, "bad_json"),
    ])
    func badPostsGetTheirStatusAndCodeAndChangeNothing(
        body: String, contentType: String, status: Int, code: String
    ) throws {
        let harness = try TuneHarness(required: ["height"])
        defer { harness.stop() }
        let (before, seq) = (harness.values, harness.hub.lastSeq)
        let (answered, json, _) = try harness.call("POST", "/tune", body: body, contentType: contentType)
        #expect(answered == status, "\(json?.jsonText() ?? "no JSON")")
        #expect(TuneHarness.code(json) == code)
        #expect(harness.values == before)
        #expect(harness.hub.lastSeq == seq)
    }

    @Test func aBodyOverTheLimitIs413() throws {
        let harness = try TuneHarness { $0.maxBodyBytes = 1024 }
        defer { harness.stop() }
        let big = #"{"free": ""# + String(repeating: "x", count: 2000) + #""}"#
        let (status, json, _) = try harness.call("POST", "/tune", body: big)
        #expect(status == 413)
        #expect(TuneHarness.code(json) == "too_large")
        #expect(harness.values["free"] == "x")
    }

    @Test func theTokenHostAndOriginRulesApply() throws {
        let harness = try TuneHarness()
        defer { harness.stop() }
        let port = try #require(harness.server.port)
        let requests: [(String, String, String?)] = [
            ("GET", "/tune", nil), ("PUT", "/tune/free/1", nil), ("POST", "/tune", "{}"),
        ]
        for (method, target, body) in requests {
            let (status, json, response) = try harness.call(method, target, body: body, token: "")
            #expect(status == 401, "\(method) \(target)")
            #expect(TuneHarness.code(json) == "unauthorized")
            #expect(response.header("www-authenticate") == "Bearer")
            #expect(try harness.call(method, target, body: body, token: "wrong-token-0123456789").status == 401)
        }
        let (badHost, _, _) = try harness.call("GET", "/tune", headers: [("Host", "evil.example:\(port)")])
        #expect(badHost == 403)
        let (badOrigin, originJSON, _) = try harness.call(
            "PUT", "/tune/free/1", headers: [("Origin", "http://evil.example")])
        #expect(badOrigin == 403)
        #expect(TuneHarness.code(originJSON) == "forbidden")
        let (goodOrigin, _, _) = try harness.call(
            "PUT", "/tune/free/2", headers: [("Origin", "http://127.0.0.1:\(port)")])
        #expect(goodOrigin == 200)
        let token = try #require(harness.server.token)
        #expect(try harness.call("GET", "/tune?token=\(token)", token: "").status == 200)
        #expect(try harness.call("PUT", "/tune/free/3?token=\(token)", token: "").json?["value"] == 3)
        #expect(harness.values["free"] == 3)
    }

    @Test func aReadOnlyServerRefusesTuneWritesAndStillReads() throws {
        let harness = try TuneHarness { $0.readOnly = true }
        defer { harness.stop() }
        for (target, body) in [("/tune/free/1", nil), ("/tune/nope/a/b", nil)] as [(String, String?)] {
            let (status, json, _) = try harness.call("PUT", target, body: body)
            #expect(status == 403)
            #expect(TuneHarness.code(json) == "read_only")
        }
        let (posted, postJSON, _) = try harness.call("POST", "/tune", body: "not even json", contentType: "text/plain")
        #expect(posted == 403)
        #expect(TuneHarness.code(postJSON) == "read_only")
        #expect(try harness.call("GET", "/tune").status == 200)
        #expect(try harness.call("GET", "/api/tunables").status == 200)
        #expect(harness.values == TuneHarness.initial)
    }

    @Test func withoutTunablesEveryEndpointIs404NoTunables() throws {
        let harness = try TuneHarness(withTunables: false)
        defer { harness.stop() }
        for (method, target, body) in [
            ("GET", "/tune", nil), ("PUT", "/tune/free/1", nil), ("POST", "/tune", "{}"), ("GET", "/api/tunables", nil),
        ] as [(String, String, String?)] {
            let (status, json, _) = try harness.call(method, target, body: body)
            #expect(status == 404, "\(method) \(target)")
            #expect(TuneHarness.code(json) == "no_tunables")
        }
    }

    @Test func otherMethodsAre405WithAllow() throws {
        let harness = try TuneHarness()
        defer { harness.stop() }
        for (method, target, allow) in [
            ("DELETE", "/tune", "GET, HEAD, POST"), ("PUT", "/tune", "GET, HEAD, POST"),
            ("GET", "/tune/free/1", "PUT, DELETE"),
            ("POST", "/tune/free/1", "PUT, DELETE"), ("POST", "/api/tunables", "GET, HEAD"),
        ] {
            let (status, json, response) = try harness.call(method, target, body: method == "POST" ? "{}" : nil)
            #expect(status == 405, "\(method) \(target)")
            #expect(TuneHarness.code(json) == "method_not_allowed")
            #expect(response.header("allow") == allow)
        }
        #expect(harness.values == TuneHarness.initial)
    }

    @Test func apiTunablesIsThePanelDescription() throws {
        let harness = try TuneHarness()
        defer { harness.stop() }
        _ = try harness.call("PUT", "/tune/height/64")
        let (status, json, _) = try harness.call("GET", "/api/tunables")
        #expect(status == 200)
        #expect(json?["store"] == "scenario:tunables/memory")
        #expect(json?["values"]?["height"] == 64)
        #expect(json?["defaults"]?["height"] == 48)
        #expect(json?["schema"] == .null)
    }
}
