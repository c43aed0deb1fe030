import KeyscopeInspector
import KeyscopeProtocol
import Testing

@testable import KeyscopeClient

/// Server addresses become the URL, Host and Origin the server's security rules expect.
@Suite struct InspectorEndpointTests {
    @Test func anHTTPURLGivesTheWebSocketURLHostAndOrigin() throws {
        let endpoint = try InspectorEndpoint(url: "http://127.0.0.1:8081", token: "abc")
        #expect(endpoint.host == "127.0.0.1" && endpoint.port == 8081)
        #expect(endpoint.webSocketURL == "ws://127.0.0.1:8081/ws?token=abc")
        #expect(endpoint.hostHeader == "127.0.0.1:8081")
        #expect(endpoint.origin == "http://127.0.0.1:8081")
        #expect(endpoint.description == "ws://127.0.0.1:8081/ws")
        #expect(endpoint.address == "127.0.0.1")
        #expect(try InspectorEndpoint(url: "http://localhost:9/", token: "").webSocketPath == "/ws")
        #expect(try InspectorEndpoint(url: "ws://localhost:9", token: "t").hostHeader == "localhost:9")
    }

    @Test func ipv6HostsKeepTheirBracketsInHeadersAndLoseThemForConnecting() throws {
        let endpoint = try InspectorEndpoint(url: "http://[::1]:8081", token: "t")
        #expect(endpoint.hostHeader == "[::1]:8081" && endpoint.origin == "http://[::1]:8081")
        #expect(endpoint.address == "::1")
        #expect(InspectorEndpoint(host: "::1", port: 1, token: "").host == "[::1]")
    }

    @Test func theTokenIsPercentEncodedInTheQuery() {
        let endpoint = InspectorEndpoint(host: "localhost", port: 1, token: "a b&c=d/é~")
        #expect(endpoint.webSocketPath == "/ws?token=a%20b%26c%3Dd%2F%C3%A9~")
    }

    @Test(arguments: [
        "127.0.0.1:8081", "http://127.0.0.1", "http://127.0.0.1:0", "http://127.0.0.1:70000", "http://:8081",
        "http://127.0.0.1:8081/ws", "http://127.0.0.1:8081?token=x", "https://127.0.0.1:8081", "http://[::1:8081",
        "http://127.0.0.1:80a",
    ])
    func addressesThatAreNotHTTPHostPortAreRefused(url: String) {
        #expect(throws: InspectorClientError.self) { try InspectorEndpoint(url: url, token: "") }
        do {
            _ = try InspectorEndpoint(url: url, token: "")
        } catch {
            #expect(error.code == .badEndpoint)
            #expect(error.message.contains("http://HOST:PORT"))
        }
    }

    @Test func aServerRecordGivesAReachableEndpointWithItsToken() {
        let wildcard = ServerRecord(host: "0.0.0.0", port: 8081, token: "tok", name: "demo")
        #expect(InspectorEndpoint(record: wildcard) == InspectorEndpoint(host: "127.0.0.1", port: 8081, token: "tok"))
        let loopback6 = ServerRecord(host: "::1", port: 9000, token: "x", name: "demo")
        #expect(InspectorEndpoint(record: loopback6).hostHeader == "[::1]:9000")
    }
}
