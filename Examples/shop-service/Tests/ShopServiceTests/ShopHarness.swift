import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KeyscopeClient
import KeyscopeCore
import KeyscopeServer
import KeyscopeServiceLifecycle
import NIOCore
import ShopService
import Testing

/// The real shop on free ports, as `shop-service` runs it (``ShopServer``: the API and the inspector in one service
/// group), with an HTTP client for the API and a WebSocket client of the inspector. Each harness has its own stores,
/// registry and data folder.
struct ShopHarness {
    let api: any TestClientProtocol
    let inspector: InspectorClient
    let server: ShopServer
    /// The inspector's port and token.
    let endpoint: InspectorEndpoint

    var stores: ShopStores { server.stores }

    /// Runs `body` against a started shop (with `redis`, a member of `fleet` as `instance`), then shuts it down.
    static func run(
        redis: String? = nil, fleet: String = "shop-test", instance: String? = nil,
        _ body: @Sendable (ShopHarness) async throws -> Void
    ) async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("shop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        var configuration = ShopServer.Configuration(dataDirectory: data)
        configuration.port = 0
        configuration.inspectorPort = 0
        configuration.writesServerRecord = false
        (configuration.redis, configuration.fleet, configuration.instance) = (redis, fleet, instance)
        let server = try ShopServer(configuration, registry: StoreRegistry())
        defer { server.stop() }
        let service = try #require(server.inspector, "tests are debug builds: the inspector is there")
        try await server.application().test(.live) { api in
            let port = try await listeningPort(of: service.server)
            let token = try #require(service.server.token)
            let endpoint = InspectorEndpoint(host: "127.0.0.1", port: port, token: token)
            let inspector = try await InspectorClient.connect(to: endpoint)
            do {
                // The server takes the client's snapshot when it sets the connection up, which may come after
                // `connect` returns: an API call before it would land in the snapshot, not in `changes`.
                try await awaitSnapshot(inspector)
                try await body(ShopHarness(api: api, inspector: inspector, server: server, endpoint: endpoint))
            } catch {
                await inspector.close()
                throw error
            }
            await inspector.close()
        }
    }

    /// Reads the inspector's stream up to its first `snapshot`: every change after it arrives in `changes`.
    private static func awaitSnapshot(_ inspector: InspectorClient) async throws {
        for try await message in inspector.messages {
            if case .snapshot = InspectorMessage(message) { return }
        }
        throw HarnessError("the inspector closed before its snapshot")
    }

    /// The inspector's port once its service has started it (it starts with the group, beside the API).
    private static func listeningPort(of server: InspectorServer) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if let port = server.port { return port }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw HarnessError("the inspector did not start within 10 s")
    }

    /// One API call (for the cart `cart` names, the guest's without one); the status and the body read as a JSON
    /// value (`nil` when it is not JSON).
    func call(_ method: HTTPRequest.Method, _ uri: String, body: String? = nil, cart: String? = nil) async throws
        -> (status: HTTPResponse.Status, json: StoreValue?)
    {
        var headers: HTTPFields = body == nil ? [:] : [.contentType: "application/json"]
        if let cart { headers[CartID.header] = cart }
        let response = try await api.execute(
            uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return (response.status, try? StoreValue(jsonData: Data(String(buffer: response.body).utf8)))
    }

    /// Reads the inspector's stream until a `changes` entry matches `predicate`; fails after `timeout`.
    func awaitEntry(timeout: Duration = .seconds(10), where predicate: @Sendable @escaping (StoreValue) -> Bool)
        async throws -> StoreValue
    {
        let messages = inspector.messages
        return try await withThrowingTaskGroup(of: StoreValue?.self) { group in
            group.addTask {
                for try await message in messages {
                    guard case .changes(let entries) = InspectorMessage(message) else { continue }
                    if let entry = entries.first(where: predicate) { return entry }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            guard let first else { throw HarnessError("no matching change reached the inspector within \(timeout)") }
            return first
        }
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
