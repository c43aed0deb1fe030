import ArgumentParser
import KeyscopeClient
import Testing

@testable import keyscope

/// Which server and token the client commands use when told with options or the environment.
@Suite struct ClientOptionsTests {
    @Test func urlAndTokenNameTheServer() throws {
        let options = try ClientOptions.parse(["--url", "http://127.0.0.1:8081", "--token", "abc"])
        #expect(
            try options.endpoint(environment: [:]) == InspectorEndpoint(host: "127.0.0.1", port: 8081, token: "abc"))
    }

    @Test func theTokenFallsBackToKeyscopeTokenAndTheOptionWins() throws {
        let fromEnvironment = try ClientOptions.parse(["--url", "http://localhost:9000"])
        #expect(try fromEnvironment.endpoint(environment: ["KEYSCOPE_TOKEN": "env"]).token == "env")
        let given = try ClientOptions.parse(["--url", "http://localhost:9000", "--token", "flag"])
        #expect(try given.endpoint(environment: ["KEYSCOPE_TOKEN": "env"]).token == "flag")
    }

    @Test func urlAndPortTogetherOrABadURLAreUsageErrors() {
        #expect(throws: (any Error).self) { try ClientOptions.parse(["--url", "http://localhost:1", "--port", "2"]) }
        #expect(throws: (any Error).self) { try ClientOptions.parse(["--url", "localhost:1"]) }
        #expect(throws: (any Error).self) { try ClientOptions.parse(["--port", "70000"]) }
    }
}
