import Foundation
import KeyscopeCore
import KeyscopeInspector
import Testing

@testable import KeyscopeServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server in this process, on a free loopback port, asked over HTTP by URLSession.
@Suite(.serialized) struct InspectorServerTests {
    func get(_ url: String, bearer: String? = nil) async throws -> (Int, [String: String], Data) {
        var request = URLRequest(url: try #require(URL(string: url)))
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            headers[String(describing: key).lowercased()] = String(describing: value)
        }
        return (http.statusCode, headers, data)
    }

    func makeServer(_ configure: (inout ServerOptions) -> Void = { _ in }) throws -> InspectorServer {
        let hub = InspectorHub(registry: StoreRegistry())
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: ["hello": "world"])
        try hub.registry.register(store)
        var options = ServerOptions()
        options.port = 0
        options.writesServerRecord = false
        configure(&options)
        return InspectorServer(hub: hub, options: options)
    }

    @Test func servesHealthAndSnapshotWithTheTokenAndSecurityHeaders() async throws {
        let server = try makeServer()
        try server.start()
        defer { server.stop() }
        let port = try #require(server.port)
        let token = try #require(server.token)
        let (status, headers, body) = try await get("http://127.0.0.1:\(port)/api/health", bearer: token)
        #expect(status == 200)
        #expect(String(decoding: body, as: UTF8.self) == #"{"ok":true,"protocol":1}"#)
        #expect(headers["x-content-type-options"] == "nosniff")
        #expect(headers["cross-origin-resource-policy"] == "same-origin")
        #expect(headers.keys.allSatisfy { !$0.hasPrefix("access-control-") })

        let (snapshotStatus, _, snapshot) = try await get("http://127.0.0.1:\(port)/api/snapshot?token=\(token)")
        #expect(snapshotStatus == 200)
        let text = String(decoding: snapshot, as: UTF8.self)
        #expect(text.hasPrefix(#"{"type":"snapshot","seq":1,"stores":[{"id":"app/memory","root":{"hello":"world"}"#))

        let (unauthorized, _, _) = try await get(
            "http://127.0.0.1:\(port)/api/health", bearer: "wrong-token-0123456789")
        #expect(unauthorized == 401)
    }

    @Test func stopFreesThePortAndAStoppedServerCannotStartAgain() async throws {
        let server = try makeServer()
        try server.start()
        let port = try #require(server.port)
        server.stop()
        #expect(server.port == nil)
        server.stop()  // idempotent
        #expect(throws: ServerError.alreadyStarted) { try server.start() }
        let again = try makeServer { $0.port = port }
        try again.start()
        #expect(again.port == port)
        again.stop()
    }

    @Test func aTakenPortIsAClearError() throws {
        let first = try makeServer()
        try first.start()
        defer { first.stop() }
        let second = try makeServer { $0.port = first.port ?? 0 }
        #expect(throws: ServerError.listenFailed(host: "127.0.0.1", port: first.port ?? 0)) { try second.start() }
    }

    @Test func refusesAShortTokenAndAMissingPublicDirectory() throws {
        let short = try makeServer { $0.token = "short" }
        #expect(throws: ServerError.self) { try short.start() }
        let missing = try makeServer { $0.publicDirectory = URL(fileURLWithPath: "/nonexistent/keyscope-public") }
        #expect(throws: ServerError.self) { try missing.start() }
    }
}
