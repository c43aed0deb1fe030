import Foundation
import KeyscopeCore
import KeyscopeRedis
import KeyscopeTesting
import ShopService
import Testing

/// Two instances of the shop with one Redis (a `redis-server` of the test's own): a flag set on one is live on
/// the other, as `shop-service --redis URL` runs them.
@Suite struct SharedFlagsTests {
    @Test func aFlagSetOnOneInstanceIsLiveOnTheOther() async throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let (first, firstData) = try Self.instance("shop-1", redis: redis.url)
        defer { Self.close(first, firstData) }
        let (second, secondData) = try Self.instance("shop-2", redis: redis.url)
        defer { Self.close(second, secondData) }

        _ = first.flags.set("gift_wrap", true)
        #expect(try await Self.eventually { second.flags.get("gift_wrap") == true }, "the flag reached shop-2")
        _ = second.flags.set("express_checkout", false)
        #expect(try await Self.eventually { first.flags.get("express_checkout") == false }, "and back to shop-1")
        #expect(first.flags.snapshot() == second.flags.snapshot())
    }

    static func instance(_ id: String, redis: String) throws -> (ShopStores, URL) {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("shop-\(UUID().uuidString)")
        let backend = try RedisBackend(url: redis, fleet: "shop-test", instance: id)
        return (try ShopStores(dataDirectory: data, registry: StoreRegistry(), backend: backend), data)
    }

    static func close(_ stores: ShopStores, _ data: URL) {
        stores.stop()
        try? FileManager.default.removeItem(at: data)
    }

    /// Polls `condition` until it holds or 10 s pass (a guard against hanging, not a timing claim).
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}
