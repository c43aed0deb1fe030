import Foundation
import KeyscopeClient
import KeyscopeCore
import KeyscopeInspector
import KeyscopeRecording
import KeyscopeServiceLifecycle
import Synchronization
import Testing

@testable import KeyscopeServer

/// `GET` and `POST /api/recordings`, `GET /api/recordings/<source>/<name>` and
/// `POST /api/recordings/recordings/<name>/stop` on a real server with a fake endpoint.
@Suite(.serialized) struct RecordingsHTTPTests {
    static let fixture = Array("{\"format\":\"kslog\",\"version\":1}\n{\"seq\":1}\n".utf8)

    /// `lines` lines of JSON, each different: a file of several MiB.
    static func bigFile(lines: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines * 80)
        for index in 0..<lines {
            bytes += Array(#"{"patches":[{"new":\#(index),"op":"set","path":"cart.total"}],"seq":\#(index + 1)}"#.utf8)
            bytes.append(0x0A)
        }
        return bytes
    }

    @Test func theListingIsTheEndpoints() throws {
        let recordings = try FakeRecordings(
            fixtures: ["checkout-session.kslog": Self.fixture], recordings: ["mine.kslog": Self.fixture])
        let harness = try RecordingsHarness(recordings: recordings)
        defer { harness.stop() }
        let (status, json, response) = try harness.call("GET", "/api/recordings")
        #expect(status == 200)
        #expect(response.header("content-type") == "application/json")
        #expect(response.header("x-content-type-options") == "nosniff")
        #expect(response.header("cross-origin-resource-policy") == "same-origin")
        #expect(json == recordings.listing())
        #expect(
            json?["recordings"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [
                "fixtures/checkout-session.kslog", "recordings/mine.kslog",
            ])
    }

    @Test func aDownloadIsTheFileByteForByteAsNDJSON() throws {
        let big = Self.bigFile(lines: 90_000)
        #expect(big.count > 5 << 20)
        let recordings = try FakeRecordings(fixtures: ["small.kslog": Self.fixture], recordings: ["big.kslog": big])
        let harness = try RecordingsHarness(recordings: recordings)
        defer { harness.stop() }
        let (status, _, response) = try harness.call("GET", "/api/recordings/recordings/big.kslog")
        #expect(status == 200)
        #expect(response.body.count == big.count)
        #expect(response.body == big)
        #expect(response.header("content-type") == "application/x-ndjson")
        #expect(response.header("content-length") == String(big.count))
        #expect(response.header("x-content-type-options") == "nosniff")
        #expect(response.header("cross-origin-resource-policy") == "same-origin")
        #expect(response.header("content-disposition") == #"attachment; filename="big.kslog""#)
        #expect(response.header("access-control-allow-origin") == nil)

        let (smallStatus, _, small) = try harness.call("GET", "/api/recordings/fixtures/small.kslog")
        #expect(smallStatus == 200 && small.body == Self.fixture)
        #expect(recordings.asked == ["recordings/big.kslog", "fixtures/small.kslog"])
    }

    @Test func aFileServedWhileTheServerStreamsAnotherLeavesItAnsweringOthers() throws {
        let big = Self.bigFile(lines: 60_000)
        let recordings = try FakeRecordings(recordings: ["big.kslog": big])
        let harness = try RecordingsHarness(recordings: recordings)
        defer { harness.stop() }
        // Two downloads side by side, and API calls meanwhile: the service thread is not held by a file.
        let results = Mutex<[Int: Bool]>([:])
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            let fine: Bool
            if index < 2 {
                fine = (try? harness.call("GET", "/api/recordings/recordings/big.kslog").response.body) == big
            } else {
                fine = (try? harness.call("GET", "/api/health").status) == 200
            }
            results.withLock { $0[index] = fine }
        }
        #expect(results.withLock { $0 } == [0: true, 1: true, 2: true])
    }

    @Test(arguments: [
        "/api/recordings/fixtures/missing.kslog",
        "/api/recordings/elsewhere/small.kslog",
        "/api/recordings/fixtures/small.txt",
        "/api/recordings/fixtures/.hidden.kslog",
        "/api/recordings/fixtures/a%20b.kslog",
        "/api/recordings/fixtures/..%5c..%5cetc%5cpasswd",
        "/api/recordings/fixtures/",
    ])
    func namesTheEndpointDoesNotServeAreItsNotFound(target: String) throws {
        let recordings = try FakeRecordings(fixtures: ["small.kslog": Self.fixture])
        let harness = try RecordingsHarness(recordings: recordings)
        defer { harness.stop() }
        let (status, json, response) = try harness.call("GET", target)
        #expect(status == 404, "\(target): \(String(decoding: response.body, as: UTF8.self))")
        #expect(TuneHarness.code(json) == "not_found")
        #expect(response.header("content-type") == "application/json")
        #expect(recordings.asked.count == 1, "\(target) reaches the endpoint as one source and one name")
    }

    @Test(arguments: [
        "/api/recordings/fixtures/..%2F..%2Fetc%2Fpasswd",
        "/api/recordings/fixtures/../../../etc/passwd",
        "/api/recordings/fixtures/a/small.kslog",
        "/api/recordings/x",
        "/api/recordings//small.kslog",
        "/api/recordings/fixtures/small.kslog/",
    ])
    func pathsOfOtherShapesAreNotFoundWithoutAskingTheEndpoint(target: String) throws {
        let recordings = try FakeRecordings(fixtures: ["small.kslog": Self.fixture])
        let harness = try RecordingsHarness(recordings: recordings)
        defer { harness.stop() }
        let (status, json, _) = try harness.call("GET", target)
        #expect(status == 404, "\(target)")
        #expect(TuneHarness.code(json) == "not_found")
        #expect(recordings.asked == [], "\(target) is not one source and one name")
    }

    @Test func aListedFileThatIsGoneIsNotFound() throws {
        let recordings = try FakeRecordings()
        let harness = try RecordingsHarness(recordings: recordings)
        defer { harness.stop() }
        recordings.fixedURL.withLock { $0 = recordings.folder.appendingPathComponent("deleted.kslog") }
        let (status, json, _) = try harness.call("GET", "/api/recordings/recordings/deleted.kslog")
        #expect(status == 404 && TuneHarness.code(json) == "not_found")
        recordings.fixedURL.withLock { $0 = recordings.folder }  // a directory
        let (directory, directoryJSON, _) = try harness.call("GET", "/api/recordings/recordings/x.kslog")
        #expect(directory == 404 && TuneHarness.code(directoryJSON) == "not_found")
    }

    @Test func startingAnswers201WithTheStatusAndPassesTheOptions() throws {
        let harness = try RecordingsHarness()
        defer { harness.stop() }
        let recordings = try #require(harness.recordings)
        let (status, json, response) = try harness.call(
            "POST", "/api/recordings",
            body:
                #"{"durationSeconds": 30, "maxBytes": 1048576, "mute": ["user.card"], "muteStores": ["app/memory"], "name": "bug-1.kslog"}"#
        )
        #expect(status == 201, "\(String(decoding: response.body, as: UTF8.self))")
        #expect(json == ["recording": recordings.status("bug-1.kslog")])
        let request = try #require(recordings.request(named: "bug-1.kslog"))
        #expect(request.duration == .seconds(30) && request.maxBytes == 1_048_576)
        #expect(request.mutedPaths == ["user.card"] && request.mutedStores.map(\.description) == ["app/memory"])

        // Without a body (or with an empty one): every option at its default.
        let (bare, bareJSON, _) = try harness.call("POST", "/api/recordings")
        #expect(bare == 201)
        let name = try #require(bareJSON?["recording"]?["name"]?.stringValue)
        #expect(recordings.request(named: name) == RecordingRequest())
        #expect(try harness.call("POST", "/api/recordings", body: "{}").status == 201)

        let (listed, listing, _) = try harness.call("GET", "/api/recordings")
        #expect(listed == 200 && listing?["active"]?.arrayValue?.count == 3)
        let (download, _, file) = try harness.call("GET", "/api/recordings/recordings/bug-1.kslog")
        #expect(download == 200 && file.body == Array("{\"format\":\"kslog\"}\n".utf8))
    }

    @Test(
        arguments: [
            (#"{"durationSeconds": -1}"#, "application/json", 400, "bad_request"),
            (#"{"maxBytes": "big"}"#, "application/json", 400, "bad_request"),
            (#"{"mute": "user"}"#, "application/json", 400, "bad_request"),
            (#"{"muteStores": ["not a store"]}"#, "application/json", 400, "bad_request"),
            (#"[1]"#, "application/json", 400, "bad_request"),
            (#"{"name": "#, "application/json", 400, "bad_json"),
            (#"{}"#, "text/plain", 415, "unsupported_media_type"),
            (#"{"name": "../x.kslog"}"#, "application/json", 400, "bad_request"),
        ] as [(String, String, Int, String)])
    func aBadStartIsRefusedAndStartsNothing(body: String, contentType: String, status: Int, code: String) throws {
        let harness = try RecordingsHarness()
        defer { harness.stop() }
        let (answered, json, _) = try harness.call("POST", "/api/recordings", body: body, contentType: contentType)
        #expect(answered == status, "\(body)")
        #expect(TuneHarness.code(json) == code, "\(body)")
        #expect(harness.recordings?.listing()["active"] == [])
    }

    @Test func stoppingAnswersTheFinalStatus() throws {
        let harness = try RecordingsHarness()
        defer { harness.stop() }
        let recordings = try #require(harness.recordings)
        #expect(try harness.call("POST", "/api/recordings", body: #"{"name": "s.kslog"}"#).status == 201)
        let (status, json, _) = try harness.call("POST", "/api/recordings/recordings/s.kslog/stop")
        #expect(status == 200)
        #expect(json == ["recording": recordings.status("s.kslog")])
        #expect(json?["recording"]?["state"] == "ended")
        // A body is allowed when it is {} (JSON), nothing else.
        #expect(try harness.call("POST", "/api/recordings/recordings/s.kslog/stop", body: "{}").status == 200)
        let (withBody, bodyJSON, _) = try harness.call(
            "POST", "/api/recordings/recordings/s.kslog/stop", body: #"{"now": true}"#)
        #expect(withBody == 400 && TuneHarness.code(bodyJSON) == "bad_request")
        let (unknown, unknownJSON, _) = try harness.call("POST", "/api/recordings/recordings/nope.kslog/stop")
        #expect(unknown == 404 && TuneHarness.code(unknownJSON) == "not_found")
        let (fixture, fixtureJSON, _) = try harness.call("POST", "/api/recordings/fixtures/s.kslog/stop")
        #expect(fixture == 404 && TuneHarness.code(fixtureJSON) == "not_found")
    }

    @Test(arguments: [
        ("PUT", "/api/recordings", "GET, HEAD, POST"),
        ("DELETE", "/api/recordings", "GET, HEAD, POST"),
        ("POST", "/api/recordings/fixtures/small.kslog", "GET, HEAD"),
        ("DELETE", "/api/recordings/fixtures/small.kslog", "GET, HEAD"),
        ("GET", "/api/recordings/recordings/s.kslog/stop", "POST"),
    ])
    func otherMethodsAre405(method: String, target: String, allow: String) throws {
        let harness = try RecordingsHarness()
        defer { harness.stop() }
        let (status, json, response) = try harness.call(method, target)
        #expect(status == 405)
        #expect(TuneHarness.code(json) == "method_not_allowed")
        #expect(response.header("allow") == allow)
    }

    @Test func everyRouteNeedsTheToken() throws {
        let harness = try RecordingsHarness(recordings: try FakeRecordings(fixtures: ["small.kslog": Self.fixture]))
        defer { harness.stop() }
        for (method, target) in [
            ("GET", "/api/recordings"), ("GET", "/api/recordings/fixtures/small.kslog"), ("POST", "/api/recordings"),
            ("POST", "/api/recordings/recordings/x.kslog/stop"), ("POST", "/api/rewind"),
        ] {
            for token in ["", "wrong-token-wrong-token"] {
                let (status, json, response) = try harness.call(method, target, token: token)
                #expect(status == 401, "\(method) \(target)")
                #expect(TuneHarness.code(json) == "unauthorized")
                #expect(response.header("www-authenticate") == "Bearer")
            }
        }
        #expect(harness.recordings?.asked == [])
        #expect(harness.recordings?.listing()["active"] == [])
    }

    /// A recording writes a file and holds a descriptor: a read-only server lists and serves recordings but refuses
    /// to start or stop one, before it reads the body or asks the recordings.
    @Test func aReadOnlyServerListsAndDownloadsButDoesNotRecord() throws {
        let harness = try RecordingsHarness(recordings: try FakeRecordings(fixtures: ["small.kslog": Self.fixture])) {
            $0.readOnly = true
        }
        defer { harness.stop() }
        #expect(try harness.call("GET", "/api/recordings").status == 200)
        #expect(try harness.call("GET", "/api/recordings/fixtures/small.kslog").response.body == Self.fixture)
        for (path, body) in [
            ("/api/recordings", #"{"name": "ro.kslog"}"#), ("/api/recordings", "not json"),
            ("/api/recordings/recordings/ro.kslog/stop", ""),
        ] {
            let call = try harness.call("POST", path, body: body)
            #expect(call.status == 403)
            #expect(call.json?["error"]?["code"] == "read_only")
        }
        #expect(harness.recordings?.listing()["active"] == [])
    }

    @Test func withoutRecordingsEveryRouteIsNoRecordings() throws {
        let harness = try RecordingsHarness(withRecordings: false)
        defer { harness.stop() }
        for (method, target) in [
            ("GET", "/api/recordings"), ("GET", "/api/recordings/fixtures/small.kslog"), ("POST", "/api/recordings"),
            ("POST", "/api/recordings/recordings/x.kslog/stop"),
        ] {
            let (status, json, _) = try harness.call(method, target)
            #expect(status == 404, "\(method) \(target)")
            #expect(TuneHarness.code(json) == "no_recordings", "\(method) \(target)")
            #expect(json?["error"]?["message"]?.stringValue?.contains("RecordingsFeature") == true)
        }
    }

    @Test func theServiceTakesRecordings() throws {
        var options = ServerOptions()
        options.port = 0
        options.writesServerRecord = false
        let recordings = try FakeRecordings(fixtures: ["small.kslog": Self.fixture])
        let service = try #require(
            InspectorService(registry: StoreRegistry(), options: options, features: [RecordingsFeature(recordings)]))
        try service.server.start()
        defer { service.server.stop() }
        #expect(service.server.hub.feature(RecordingsFeature.self)?.endpoint === recordings)
        let client = HTTPClient(
            endpoint: InspectorEndpoint(
                host: "127.0.0.1", port: try #require(service.server.port), token: try #require(service.server.token)))
        let response = try client.send(method: "GET", target: "/api/recordings/fixtures/small.kslog")
        #expect(response.status == 200 && response.body == Self.fixture)
    }
}
