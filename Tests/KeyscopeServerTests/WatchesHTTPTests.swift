import KeyscopeClient
import KeyscopeCore
import KeyscopeInspector
import Testing

@testable import KeyscopeServer

/// `GET /api/watches` and `POST /api/watches/refresh` on a real server with a fake endpoint.
@Suite(.serialized) struct WatchesHTTPTests {
    @Test func getAnswersThePanelDescription() throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        let (status, json, response) = try harness.call("GET", "/api/watches")
        #expect(status == 200)
        #expect(response.header("content-type") == "application/json")
        #expect(response.header("x-content-type-options") == "nosniff")
        #expect(response.header("cross-origin-resource-policy") == "same-origin")
        #expect(json == harness.watches?.panelDescription())
        #expect(json?["statuses"]?[0]?["name"] == "DataDirWritable")
    }

    @Test(
        arguments: [
            (nil, "application/json", 200, nil), ("", "application/json", 200, nil),
            ("{}", "application/json", 200, nil),
            (#"{"all": true}"#, "application/json", 400, "bad_request"), ("{", "application/json", 400, "bad_json"),
            ("{}", "text/plain", 415, "unsupported_media_type"),
        ] as [(String?, String, Int, String?)])
    func refreshReReadsEveryStatusAndAnswersOk(body: String?, contentType: String, status: Int, code: String?) throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        let seq = harness.hub.lastSeq
        let (answered, json, _) = try harness.call("POST", "/api/watches/refresh", body: body, contentType: contentType)
        #expect(answered == status, "\(json?.jsonText() ?? "no JSON")")
        if let code {
            #expect(TuneHarness.code(json) == code)
            #expect(harness.watches?.refreshCount == 0)
        } else {
            #expect(json == ["ok": true])
            #expect(harness.watches?.refreshCount == 1)
            #expect(try harness.call("GET", "/api/watches").json?["refreshes"] == 1)
        }
        #expect(harness.hub.lastSeq == seq)
    }

    @Test func aReadOnlyServerStillServesAndRefreshesWatches() throws {
        let harness = try PreferenceHarness { $0.readOnly = true }
        defer { harness.stop() }
        #expect(try harness.call("GET", "/api/watches").status == 200)
        let (status, json, _) = try harness.call("POST", "/api/watches/refresh", body: "{}")
        #expect(status == 200)
        #expect(json == ["ok": true])
        #expect(harness.watches?.refreshCount == 1)
    }

    @Test func withoutWatchesBothEndpointsAre404NoWatches() throws {
        let harness = try PreferenceHarness(withWatches: false)
        defer { harness.stop() }
        for (method, target, body) in [
            ("GET", "/api/watches", nil), ("POST", "/api/watches/refresh", nil), ("POST", "/api/watches/refresh", "{}"),
        ] as [(String, String, String?)] {
            let (status, json, _) = try harness.call(method, target, body: body)
            #expect(status == 404, "\(method) \(target)")
            #expect(TuneHarness.code(json) == "no_watches")
            #expect(json?["error"]?["message"]?.stringValue?.contains("WatchesFeature") == true)
        }
        #expect(try harness.call("GET", "/api/preferences").status == 200, "preferences do not need watches")
    }

    @Test func otherMethodsAre405WithAllowAndOtherPathsAre404() throws {
        let harness = try PreferenceHarness()
        defer { harness.stop() }
        for (method, target, allow) in [
            ("POST", "/api/watches", "GET, HEAD"), ("PUT", "/api/watches", "GET, HEAD"),
            ("DELETE", "/api/watches", "GET, HEAD"),
            ("GET", "/api/watches/refresh", "POST"), ("PUT", "/api/watches/refresh", "POST"),
        ] {
            let (status, json, response) = try harness.call(method, target, body: method == "GET" ? nil : "{}")
            #expect(status == 405, "\(method) \(target)")
            #expect(TuneHarness.code(json) == "method_not_allowed")
            #expect(response.header("allow") == allow)
        }
        let (status, json, _) = try harness.call("GET", "/api/watches/nope")
        #expect(status == 404)
        #expect(TuneHarness.code(json) == "not_found")
        #expect(harness.watches?.refreshCount == 0)
    }
}
