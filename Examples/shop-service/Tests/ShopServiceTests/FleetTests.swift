import Foundation
import HTTPTypes
import KeyscopeClient
import KeyscopeCore
import KeyscopeFleet
import KeyscopeServer
import KeyscopeTesting
import Logging
import ShopService
import Testing

/// Two instances of the shop with one Redis (a `redis-server` of the test's own) and a fleet dashboard beside them,
/// as the README runs `shop-service --redis URL` twice and `keyscope fleet`.
@Suite struct FleetTests {
    @Test func twoInstancesShareTheirFlagsAndTheFleetDashboardReachesEach() async throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let fleet = try FleetDashboardHarness(redis: redis.url, fleet: "shop-test")
        defer { fleet.stop() }
        try await ShopHarness.run(redis: redis.url, instance: "shop-1") { first in
            try await ShopHarness.run(redis: redis.url, instance: "shop-2") { second in
                // A flag written through shop-1's inspector is what shop-2's API answers.
                let write = try await first.inspector.send(request: [
                    "type": "write", "store": "app/backend:flags", "op": "set", "path": "gift_wrap", "value": true,
                ])
                #expect(write.ok, "\(write.message.jsonText())")
                #expect(try await eventually { try await second.call(.get, "/flags").json?["gift_wrap"] == true })

                #expect(try await eventually { fleet.liveInstances() == ["shop-1", "shop-2"] }, "both joined")
                // A tunable edited for shop-2 through the fleet dashboard changes shop-2's answers only.
                let tune = try fleet.request(
                    instance: "shop-2", #"{"type": "tune", "key": "welcome_text", "value": "Hello from the fleet"}"#)
                #expect(tune.status == 200, "\(String(decoding: tune.body, as: UTF8.self))")
                #expect(try await second.call(.get, "/cart").json?["message"] == "Hello from the fleet")
                #expect(try await first.call(.get, "/cart").json?["message"] == "Welcome to the tea shop!")
            }
            // shop-2 stopped: it left the fleet, which the dashboard shows at once (not after 6 s of silence).
            #expect(try await eventually { fleet.liveInstances() == ["shop-1"] }, "shop-2 shown gone")
        }
    }

    /// Polls `condition` until it holds or 10 s pass (a guard against hanging, not a timing claim).
    func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await condition()
    }
}

/// What `keyscope fleet` runs: the inspector server with the `FleetDashboard` feature on a free port, following
/// the fleet in Redis; its HTTP API over a real socket.
struct FleetDashboardHarness {
    let server: InspectorServer
    let dashboard: FleetDashboard
    let client: HTTPClient

    init(redis: String, fleet: String) throws {
        var options = ServerOptions()
        options.port = 0
        options.writesServerRecord = false
        let dashboard = FleetDashboard(FleetView(try FleetView.Options(redis: redis, fleet: fleet)))
        let server = Inspector.makeServer(
            registry: StoreRegistry(), options: options, features: [dashboard], logger: Logger(label: "fleet"))
        try server.start()
        let endpoint = InspectorEndpoint(
            host: "127.0.0.1", port: try #require(server.port), token: try #require(server.token))
        (self.server, self.dashboard, client) = (server, dashboard, HTTPClient(endpoint: endpoint))
    }

    /// The ids of the instances `GET /api/fleet` lists live, sorted.
    func liveInstances() -> [String] {
        guard let fleet = try? client.send(method: "GET", target: "/api/fleet").json() else { return [] }
        let live = (fleet["instances"]?.arrayValue ?? []).filter { $0["state"] == "live" }
        return live.compactMap { $0["id"]?.stringValue }.sorted()
    }

    /// `POST /api/request?instance=ID`: `request` carried to that instance, answered with its reply.
    func request(instance: String, _ request: String) throws -> KeyscopeClient.HTTPResponse {
        try client.send(method: "POST", target: "/api/request?instance=\(instance)", body: Array(request.utf8))
    }

    func stop() {
        server.stop()
        dashboard.view.stop()
    }
}
