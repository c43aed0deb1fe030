import Foundation
import KeyscopeCore
import KeyscopeFleet
import KeyscopeTesting
import Testing

/// Redis going away and coming back, and instances whose log outruns the dashboard.
@Suite(.serialized) struct FleetFaultTests {
    @Test func afterRedisRestartsEmptyEverySideCatchesUpWithAGapAndAFreshSnapshot() throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let instance = try FleetInstanceUnderTest(redis: redis.url, fleet: "shop", id: "shop-1")
        defer { instance.stop() }
        let view = try makeView(redis.url, fleet: "shop")
        defer { view.stop() }
        eventually("shop-1 mirrored") { view.isMirrored("shop-1") }
        var cursor = try #require(view.makeCursor(instance: "shop-1")).cursor

        redis.kill()
        instance.store.set("whileDown", 1)  // the instance goes on without Redis
        #expect(instance.store.get("whileDown") == 1)
        try redis.restart(keepingData: false)

        eventually("the change made while Redis was down to reach the dashboard", timeout: .seconds(15)) {
            String(decoding: view.snapshotMessage(of: "shop-1") ?? [], as: UTF8.self).contains("whileDown")
        }
        // The client was behind the dashboard's new state: a gap, then the snapshot it needs; nothing twice.
        guard case .gap(let from, let to, let snapshot)? = view.read(&cursor, maxEntries: 100, maxBytes: 1 << 20) else {
            Issue.record("expected a gap")
            return
        }
        #expect(from <= to)
        #expect(String(decoding: snapshot, as: UTF8.self).contains("whileDown"))
        instance.store.set("afterwards", 2)
        var lines: [[UInt8]] = []
        eventually("a change after the restart") {
            if case .entries(let more)? = view.read(&cursor, maxEntries: 100, maxBytes: 1 << 20) { lines += more }
            return lines.contains { String(decoding: $0, as: UTF8.self).contains("afterwards") }
        }
        #expect(lines.first.map { String(decoding: $0, as: UTF8.self).contains("\"seq\":\(to + 1)") } == true)
    }

    @Test func aRestartedInstanceStartsItsClientsOverWithItsNewState() throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let first = try FleetInstanceUnderTest(redis: redis.url, fleet: "shop", id: "shop-1")
        let view = try makeView(redis.url, fleet: "shop")
        defer { view.stop() }
        eventually("shop-1 mirrored") { view.isMirrored("shop-1") }
        var cursor = try #require(view.makeCursor(instance: "shop-1")).cursor
        for index in 0..<50 { first.store.set("n", .integer(Int64(index))) }
        first.stop()
        let second = try FleetInstanceUnderTest(
            redis: redis.url, fleet: "shop", id: "shop-1", root: ["run": "second"])
        defer { second.stop() }
        var restarted: [UInt8]?
        eventually("the client to get the new run's snapshot") {
            switch view.read(&cursor, maxEntries: 1000, maxBytes: 1 << 20) {
            case .snapshot(let bytes)?: restarted = bytes
            default: break
            }
            return restarted != nil
        }
        #expect(String(decoding: restarted ?? [], as: UTF8.self).contains("second"))
        #expect(view.instance("shop-1")?.isLive == true)
    }
}
