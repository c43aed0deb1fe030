import Foundation
import KeyscopeCore
import KeyscopeInspector
import Testing

@testable import KeyscopeServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The conformance echo's start rules and its HTTP side (the WebSocket side is Tests/e2e/test_echo.py and the
/// Autobahn suite, `make conformance`).
@Suite(.serialized) struct ConformanceEchoTests {
    func makeEcho(host: String = "127.0.0.1") -> InspectorServer {
        var options = ServerOptions()
        options.host = host
        options.port = 0
        options.conformanceEcho = true
        options.writesServerRecord = false
        return InspectorServer(hub: InspectorHub(registry: StoreRegistry()), options: options)
    }

    @Test(arguments: ["0.0.0.0", "192.0.2.1", "::"])
    func listensOnLoopbackOnly(host: String) {
        let echo = makeEcho(host: host)
        #expect(throws: ServerError.invalidOption("the conformance echo listens on loopback only, not on \(host)")) {
            try echo.start()
        }
    }

    @Test func plainHTTPIsNotFoundEvenWithTheToken() async throws {
        let echo = makeEcho()
        try echo.start()
        defer { echo.stop() }
        let port = try #require(echo.port)
        let token = try #require(echo.token)
        for path in ["/", "/api/health", "/ws"] {
            var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)\(path)")))
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            let (data, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 404, "\(path)")
            #expect(String(decoding: data, as: UTF8.self).contains(#""code":"not_found""#), "\(path)")
        }
    }
}
