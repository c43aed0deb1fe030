import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeFleet
import KeyscopeRedis
import KeyscopeTesting
import Testing

/// Instances and a fleet view on a real `redis-server` (started per test on a free port).
@Suite(.serialized) struct FleetViewTests {
    @Test func anInstanceIsListedMirroredAndFollowed() throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let instance = try FleetInstanceUnderTest(redis: redis.url, fleet: "shop", id: "shop-1")
        defer { instance.stop() }
        let view = try makeView(redis.url, fleet: "shop")
        defer { view.stop() }

        eventually("shop-1 listed and mirrored") {
            view.instance("shop-1")?.isLive == true && view.isMirrored("shop-1")
        }
        let listed = try #require(view.instance("shop-1"))
        #expect(listed.presence.name == "test-service")
        #expect(listed.presence.pid == Int(ProcessInfo.processInfo.processIdentifier))
        #expect(listed.presence.readOnly == false)

        let (snapshot, start) = try #require(view.makeCursor(instance: "shop-1"))
        let parsed = try StoreValue(jsonBytes: snapshot)
        #expect(parsed.objectValue?["type"] == "snapshot")
        #expect(parsed.objectValue?["instance"] == "shop-1")
        var cursor = start
        instance.store.set("cart.total", 100)
        instance.store.set("cart.coupon", "SAVE10")
        var lines: [[UInt8]] = []
        eventually("both changes read through the fleet") {
            if case .entries(let more)? = view.read(&cursor, maxEntries: 100, maxBytes: 1 << 20) { lines += more }
            return lines.count >= 2
        }
        let entries = try lines.map { try StoreValue(jsonBytes: $0) }
        let seqs = entries.compactMap { entry -> Int64? in
            if case .integer(let seq)? = entry.objectValue?["seq"] { return seq }
            return nil
        }
        #expect(seqs.count == 2)
        #expect(seqs.last == (seqs.first ?? 0) + 1)
        let state = try StoreValue(jsonBytes: try #require(view.snapshotMessage(of: "shop-1")))
        let stores = state.objectValue?["stores"]?.arrayValue ?? []
        let memory = stores.first { $0.objectValue?["id"] == "app/memory" }
        #expect(memory?.objectValue?["root"] == ["cart": ["total": 100, "coupon": "SAVE10"]])
    }

    @Test func secretsAreRedactedBeforeTheyReachRedis() throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let instance = try FleetInstanceUnderTest(redis: redis.url, fleet: "shop", id: "shop-1")
        defer { instance.stop() }
        let view = try makeView(redis.url, fleet: "shop")
        defer { view.stop() }
        eventually("shop-1 mirrored") { view.isMirrored("shop-1") }
        instance.secrets.set("apiKey", "sk-live-abcdefghij")
        eventually("the secret's change mirrored") {
            guard let bytes = view.snapshotMessage(of: "shop-1") else { return false }
            return String(decoding: bytes, as: UTF8.self).contains("•••• (18)")
        }
        let everything = try redisDump(redis.url, fleet: "shop")
        #expect(!everything.contains("sk-live"), "a secret reached Redis")
        #expect(everything.contains("•••• (14)"))
    }

    @Test func requestsRunThroughTheInstancesWritePathAndReadOnlyRefusesThem() throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let writable = try FleetInstanceUnderTest(redis: redis.url, fleet: "shop", id: "shop-1")
        defer { writable.stop() }
        let readOnly = try FleetInstanceUnderTest(redis: redis.url, fleet: "shop", id: "shop-2", readOnly: true)
        defer { readOnly.stop() }
        let view = try makeView(redis.url, fleet: "shop")
        defer { view.stop() }
        eventually("both instances live") { view.instances().filter(\.isLive).count == 2 }

        let write = Array(
            #"{"id":7,"type":"write","store":"app/memory","op":"set","path":"cart.coupon","value":"FLEET"}"#.utf8)
        let reply = try #require(awaitAnswer { view.send(write, to: "shop-1", completion: $0) })
        #expect(reply.objectValue?["ok"] == true)
        #expect(reply.objectValue?["id"] == 7)
        #expect(writable.store.get("cart.coupon") == "FLEET")

        let bad = Array(#"{"id":8,"type":"write","store":"app/memory","op":"set","path":"a..b","value":1}"#.utf8)
        let refused = try #require(awaitAnswer { view.send(bad, to: "shop-1", completion: $0) })
        #expect(refused.objectValue?["ok"] == false)
        #expect(refused.objectValue?["error"]?.objectValue?["code"] == "bad_path")

        let all = try #require(awaitAnswer { view.broadcast(write, completion: $0) })
        let answers = all.objectValue?["result"]?.objectValue?["instances"]?.objectValue ?? [:]
        #expect(answers["shop-1"]?.objectValue?["ok"] == true)
        #expect(answers["shop-2"]?.objectValue?["ok"] == false)
        #expect(answers["shop-2"]?.objectValue?["error"]?.objectValue?["code"] == "read_only")
        #expect(readOnly.store.get("cart.coupon") == nil)
    }

    @Test func aStoppedInstanceIsGoneAndItsLastStateStaysReadable() throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let instance = try FleetInstanceUnderTest(redis: redis.url, fleet: "shop", id: "shop-1")
        let view = try makeView(redis.url, fleet: "shop")
        defer { view.stop() }
        eventually("shop-1 mirrored") { view.isMirrored("shop-1") }
        instance.store.set("cart.total", 123)
        eventually("the change mirrored") {
            String(decoding: view.snapshotMessage(of: "shop-1") ?? [], as: UTF8.self).contains("123")
        }
        instance.stop()
        eventually("shop-1 gone") { view.instance("shop-1")?.isLive == false }
        #expect(String(decoding: view.snapshotMessage(of: "shop-1") ?? [], as: UTF8.self).contains("123"))
        let write = Array(#"{"id":1,"type":"write","store":"app/memory","op":"set","path":"x","value":1}"#.utf8)
        let reply = try #require(awaitAnswer { view.send(write, to: "shop-1", completion: $0) })
        #expect(reply.objectValue?["error"]?.objectValue?["code"] == "unavailable")
        let unknown = try #require(awaitAnswer { view.send(write, to: "shop-9", completion: $0) })
        #expect(unknown.objectValue?["error"]?.objectValue?["code"] == "unknown_instance")
    }

    @Test func aLiveInstanceThatNeverAnswersGetsUnavailable() throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        // A presence that says "live" with nothing behind it: an instance hung before it could answer.
        let client = RedisClientForTests(url: redis.url)
        let ghost = InstancePresence(
            id: "ghost", name: "hung", host: "h", pid: 1, version: "0", startedAt: .now, lastSeen: .now, seq: 0,
            readOnly: false, epoch: "e")
        _ = try client.strings(["HSET", "shop:instance:ghost"] + ghost.fields)
        _ = try client.strings(["ZADD", "shop:instances", "\(Int64(Date().timeIntervalSince1970 * 1000))", "ghost"])
        let view = try makeView(redis.url, fleet: "shop")
        defer { view.stop() }
        eventually("ghost listed live") { view.instance("ghost")?.isLive == true }
        let started = ContinuousClock.now
        let write = Array(#"{"id":3,"type":"write","store":"app/memory","op":"set","path":"late","value":1}"#.utf8)
        let reply = try #require(awaitAnswer { view.send(write, to: "ghost", completion: $0) })
        #expect(reply.objectValue?["id"] == 3)
        #expect(reply.objectValue?["error"]?.objectValue?["code"] == "unavailable")
        #expect(ContinuousClock.now - started >= view.options.requestTimeout)
        // The request does not wait in Redis for ever.
        eventually("the untaken request to expire") {
            (try? client.strings(["LLEN", "shop:instance:ghost:requests"])) == ["0"]
        }
    }

    @Test func anInstanceDropsARequestFoundAfterItsDeadline() throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let instance = try FleetInstanceUnderTest(redis: redis.url, fleet: "shop", id: "shop-1")
        defer { instance.stop() }
        let view = try makeView(redis.url, fleet: "shop")
        defer { view.stop() }
        eventually("shop-1 live") { view.instance("shop-1")?.isLive == true }
        let client = RedisClientForTests(url: redis.url)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        for (path, deadline) in [("late", now - 1), ("onTime", now + 60_000)] {
            let request = Array(
                #"{"id":1,"type":"write","store":"app/memory","op":"set","path":"\#(path)","value":1}"#.utf8)
            let envelope = FleetEnvelope.request(
                rid: path, dashboard: "test", deadlineMillis: deadline, request: request)
            _ = try client.client.call(bytes: [
                Array("RPUSH".utf8), Array("shop:instance:shop-1:requests".utf8), envelope,
            ])
        }
        eventually("the request on time applied") { instance.store.get("onTime") == 1 }
        #expect(instance.store.get("late") == nil)
        let answers = try client.strings(["LRANGE", "shop:dashboard:test:replies", "0", "-1"])
        #expect(answers.count == 1)
        #expect(answers.first?.contains(#""rid":"onTime""#) == true)
    }

    @Test func theDiffListsTheSmallestDifferingPathsAndStoresOnOneSide() throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let one = try FleetInstanceUnderTest(
            redis: redis.url, fleet: "shop", id: "shop-1",
            root: ["cart": ["total": 90, "items": [1, 2]], "same": true])
        defer { one.stop() }
        let two = try FleetInstanceUnderTest(
            redis: redis.url, fleet: "shop", id: "shop-2", root: ["cart": ["total": 90.0, "items": [1]], "same": true])
        defer { two.stop() }
        let extra = KeyValueStore(id: StoreID(scope: .scenario(id: "checkout"), storage: .memory))
        try two.registry.register(extra)
        let view = try makeView(redis.url, fleet: "shop")
        defer { view.stop() }
        eventually("both mirrored with shop-2's extra store") {
            view.isMirrored("shop-1")
                && String(decoding: view.snapshotMessage(of: "shop-2") ?? [], as: UTF8.self).contains(
                    "scenario:checkout")
        }
        let diff = try #require(view.diff("shop-1", "shop-2"))
        let memory = try #require(diff.stores[StoreID(scope: .app, storage: .memory)])
        #expect(memory.map(\.path.description) == ["cart.items[1]", "cart.total"])
        #expect(memory[0].a == 2 && memory[0].b == nil)
        #expect(memory[1].a == 90 && memory[1].b == .number(90))
        #expect(diff.onlyInB == [StoreID(scope: .scenario(id: "checkout"), storage: .memory)])
        #expect(diff.onlyInA.isEmpty)
    }
}

/// Every key of the fleet and its value, as text (strings, hashes, lists and streams).
func redisDump(_ url: String, fleet: String) throws -> String {
    let client = RedisClientForTests(url: url)
    var text = ""
    for key in try client.strings(["KEYS", "\(fleet):*"]) {
        let type = try client.strings(["TYPE", key]).first ?? ""
        switch type {
        case "string": text += try client.strings(["GET", key]).joined(separator: " ")
        case "hash": text += try client.strings(["HGETALL", key]).joined(separator: " ")
        case "list": text += try client.strings(["LRANGE", key, "0", "-1"]).joined(separator: " ")
        case "stream": text += try client.strings(["XRANGE", key, "-", "+"]).joined(separator: " ")
        default: break
        }
        text += "\n"
    }
    return text
}
