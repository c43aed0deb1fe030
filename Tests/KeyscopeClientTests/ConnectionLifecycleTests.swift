import Testing

@testable import KeyscopeClient

/// Connecting ends one way or another, without a server that cooperates: refused ports, handshakes that never
/// complete, cancelled attempts.
@Suite struct ConnectionLifecycleTests {
    @Test func nothingListeningIsAConnectionFailureWithoutAStatus() async throws {
        let silent = try #require(SilentServer())
        let port = silent.port
        silent.close()  // the port is now closed: connecting is refused by the kernel
        do {
            _ = try await InspectorClient.connect(to: InspectorEndpoint(host: "127.0.0.1", port: port, token: "t"))
            Issue.record("connected to a closed port")
        } catch let error as InspectorClientError {
            #expect(error.code == .connectionFailed && error.httpStatus == nil)
            #expect(error.message.hasPrefix("could not connect to ws://127.0.0.1:\(port)/ws"))
        }
    }

    @Test func aHandshakeThatNeverCompletesTimesOut() async throws {
        let silent = try #require(SilentServer())
        defer { silent.close() }
        let endpoint = InspectorEndpoint(host: "127.0.0.1", port: silent.port, token: "t")
        do {
            _ = try await InspectorClient.connect(
                to: endpoint, configuration: InspectorClient.Configuration(connectTimeoutSeconds: 1))
            Issue.record("connected to a server that never answers")
        } catch let error as InspectorClientError {
            #expect(error.code == .connectionFailed)
        }
    }

    @Test func cancellingAConnectThrowsCancellationError() async throws {
        let silent = try #require(SilentServer())
        defer { silent.close() }
        let endpoint = InspectorEndpoint(host: "127.0.0.1", port: silent.port, token: "t")
        let attempt = Task { try await InspectorClient.connect(to: endpoint) }
        attempt.cancel()
        await #expect(throws: CancellationError.self) { try await attempt.value }
    }
}
