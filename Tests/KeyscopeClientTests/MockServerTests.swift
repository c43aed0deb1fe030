import Foundation
import KeyscopeCore
import Testing

@testable import KeyscopeClient

/// The client against a running `Tests/client-mock/mock_server.py` (an independent WebSocket server). Runs only
/// when `KEYSCOPE_MOCK_PORT` (and `KEYSCOPE_MOCK_TOKEN`) say where one listens, started with `--big-bytes 2097152`:
///
/// ```
/// /tmp/client-venv/bin/python Tests/client-mock/mock_server.py --port 18181 --token t0k3n --big-bytes 2097152 &
/// KEYSCOPE_MOCK_PORT=18181 KEYSCOPE_MOCK_TOKEN=t0k3n swift test --filter MockServerTests
/// ```
@Suite(.enabled(if: MockServer.endpoint != nil, "set KEYSCOPE_MOCK_PORT to a running mock_server.py"))
struct MockServerTests {
    @Test func helloThenASnapshotWhoseFragmentedMessageWasReassembled() async throws {
        let client = try await InspectorClient.connect(to: try #require(MockServer.endpoint))
        var iterator = client.messages.makeAsyncIterator()
        let hello = try #require(try await iterator.next())
        #expect(hello["type"] == "hello" && hello["protocol"] == 1)
        let snapshot = try #require(try await iterator.next())
        guard case .snapshot = InspectorMessage(snapshot) else {
            Issue.record("expected a snapshot, got \(snapshot["type"] ?? .null)")
            return
        }
        let stores = try #require(snapshot["stores"]?.arrayValue)
        let big = try #require(stores.first { $0["id"] == "app/file:/tmp/big.json" })
        #expect(big["root"]?["blob"]?.stringValue?.utf8.count == 2 << 20)
        let memory = try #require(stores.first { $0["id"] == "app/memory" })
        // {"$$beta": true} on the wire is the key "$beta"; {"$color": …} is a color.
        #expect(memory["root"]?["flags"]?["$beta"] == true)
        #expect(memory["root"]?["accent"] == .color(StoreColor("#FF8800")!))
        await client.close()
    }

    @Test func repliesAreMatchedToTheirRequestsByIdWhateverTheirOrder() async throws {
        let client = try await InspectorClient.connect(to: try #require(MockServer.endpoint))
        // The mock answers {"type": "sleep", "ms": N} after N ms, so these replies arrive as 2, 3, 1.
        async let slow = client.send(request: ["type": "sleep", "ms": 600])
        async let fast = client.send(request: ["type": "sleep", "ms": 0])
        async let middle = client.send(request: ["type": "sleep", "ms": 300])
        let replies = try await [slow, fast, middle]
        #expect(replies.map { $0.result?["slept"] } == [600, 0, 300])
        #expect(Set(replies.map(\.id)).count == 3)
        let refused = try await client.send(request: ["type": "nonsense"])
        #expect(refused.error?.code == "unknown_type")
        await client.close()
    }

    @Test func aWriteIsRepliedToWithItsSeqAndItsChangeArrives() async throws {
        let client = try await InspectorClient.connect(to: try #require(MockServer.endpoint))
        let reply = try await client.send(request: [
            "type": "write", "store": "app/userPrefs", "op": "set", "path": "theme", "value": "light",
        ])
        let seq = try #require(reply.seq)
        for try await message in client.messages {
            guard case .changes(let entries) = InspectorMessage(message) else { continue }
            if let entry = entries.first(where: { $0["seq"]?.integerValue == seq }) {
                #expect(entry["patches"]?[0]?["new"] == "light")
                break
            }
        }
        await client.close()
    }

    @Test func aWrongTokenIsARefusalWithStatus401() async throws {
        var endpoint = try #require(MockServer.endpoint)
        endpoint.token = "wrong"
        do {
            _ = try await InspectorClient.connect(to: endpoint)
            Issue.record("connected with a wrong token")
        } catch let error as InspectorClientError {
            #expect(error.code == .refused && error.httpStatus == 401)
            #expect(error.message.contains("HTTP 401"))
        }
    }

    @Test func aMessageOverTheLimitEndsTheStreamWithTooLarge() async throws {
        let configuration = InspectorClient.Configuration(maxMessageBytes: 1024)
        let client = try await InspectorClient.connect(
            to: try #require(MockServer.endpoint), configuration: configuration)
        do {
            for try await _ in client.messages {}
            Issue.record("the stream ended without an error")
        } catch let error as InspectorClientError {
            #expect(error.code == .tooLarge)
        }
        await #expect(throws: InspectorClientError.self) { try await client.send(request: ["type": "resync"]) }
    }

    @Test func afterCloseTheStreamFinishesAndRequestsFail() async throws {
        let client = try await InspectorClient.connect(to: try #require(MockServer.endpoint))
        await client.close()
        // Finishes without an error: this side closed.
        for try await _ in client.messages {}
        do {
            _ = try await client.send(request: ["type": "resync"])
            Issue.record("a request after close was answered")
        } catch let error as InspectorClientError {
            #expect(error.code == .closed)
        }
        await client.close()
    }
}

/// Where the mock server listens, from the environment.
enum MockServer {
    static var endpoint: InspectorEndpoint? {
        let environment = ProcessInfo.processInfo.environment
        guard let port = environment["KEYSCOPE_MOCK_PORT"].flatMap(Int.init) else { return nil }
        return InspectorEndpoint(host: "127.0.0.1", port: port, token: environment["KEYSCOPE_MOCK_TOKEN"] ?? "t0k3n")
    }
}
