import Foundation
import KeyscopeCore
import KeyscopeRedis
import KeyscopeTesting
import Testing

/// Two or more instances (factories with backends of their own) in one process, against a real redis-server.
@Suite struct RedisBackendTests {
    @Test func aWriteOnOneInstanceAppearsOnTheOtherWithItsOrigin() throws {
        let server = try RedisTestServer()
        let a = try Instance(server.url, fleet: "shop", id: "shop-1")
        let b = try Instance(server.url, fleet: "shop", id: "shop-2")
        a.store.set("flags.newCheckout", true)
        eventually("B has A's flag") { b.store.get("flags.newCheckout") == true }
        let heard = b.changes.all.last
        #expect(heard?.origin == "shop-1")
        #expect(heard?.patches.map(\.keyPath.description) == ["flags"])
        // A's own change carries no origin: it was made there.
        #expect(a.changes.all.map(\.origin) == [nil])
        // The other way round, and a removal.
        b.store.set("theme", "dark")
        eventually("A has B's theme") { a.store.get("theme") == "dark" }
        #expect(a.changes.all.last?.origin == "shop-2")
        a.store.remove("flags")
        eventually("B lost flags") { b.store.get("flags") == nil }
        #expect(b.store.snapshot() == ["theme": "dark"])
    }

    @Test func aNewInstanceOpensWithTheCurrentDocument() throws {
        let server = try RedisTestServer()
        let a = try Instance(server.url, fleet: "shop", id: "a")
        a.store.set("limits", ["cart": 20, "rate": 1.5])
        a.store.set("banner", "Sale")
        a.store.flush()
        #expect(a.store.backendStatus?.pending == 0)
        let c = try Instance(server.url, fleet: "shop", id: "c")
        // Loaded before `store(…)` returned: no waiting.
        #expect(c.store.snapshot() == a.store.snapshot())
        #expect(c.changes.all.isEmpty)
    }

    @Test func documentsAreApartPerFleetNamespaceAndMajorVersion() throws {
        let server = try RedisTestServer()
        let a = try Instance(server.url, fleet: "one", id: "a")
        a.store.set("x", 1)
        a.store.flush()
        #expect(try Instance(server.url, fleet: "two", id: "b").store.snapshot() == [:])
        #expect(try Instance(server.url, fleet: "one", id: "b", namespace: "other").store.snapshot() == [:])
        #expect(try Instance(server.url, fleet: "one", id: "b").store.snapshot() == ["x": 1])
        let keys = try inspect(server).call(["KEYS", "*"]).array?.compactMap(\.string).sorted()
        #expect(keys?.contains("one:backend:settings:v1:doc") == true)
        #expect(keys?.allSatisfy { $0.hasPrefix("one:backend:") || $0.hasPrefix("two:backend:") } == true)
        #expect(keys?.contains("two:backend:settings:v1:meta") == true)
        #expect(keys?.contains("one:backend:other:v1:meta") == true)
        // The document is readable by other tools: a hash of top-level keys and StoreValue JSON.
        #expect(try inspect(server).call(["HGET", "one:backend:settings:v1:doc", "x"]).string == "1")
    }

    /// docs/store.md and docs/fleet.md: the secret-store mirrors are `secrets:<service>` stores, never synced through Redis,
    /// even from a factory whose backend is Redis.
    @Test func aSecretsStoreOfARedisBackedFactoryNeverReachesRedis() throws {
        let server = try RedisTestServer()
        let a = try Instance(server.url, fleet: "shop", id: "a")
        let secrets = a.factory.store(storage: .secrets(service: "com.shop.api"))
        secrets.set("token", "•••• (24)")
        secrets.flush()
        a.store.set("banner", "Sale")
        a.store.flush()
        #expect(secrets.backendStatus == nil)
        #expect(a.store.backendStatus?.pending == 0)
        let keys = try inspect(server).call(["KEYS", "*"]).array?.compactMap(\.string).sorted() ?? []
        #expect(
            keys == ["shop:backend:settings:shape"]
                + ["doc", "log", "meta", "ver"].map { "shop:backend:settings:v1:\($0)" })
        // Another instance of the fleet sees the backend store's data, and no secret.
        let b = try Instance(server.url, fleet: "shop", id: "b")
        #expect(b.store.snapshot() == ["banner": "Sale"])
        #expect(b.factory.store(storage: .secrets(service: "com.shop.api")).snapshot() == [:])
    }

    @Test func concurrentWritesToDifferentKeysAreBothKept() throws {
        let server = try RedisTestServer()
        let a = try Instance(server.url, fleet: "f", id: "a")
        let b = try Instance(server.url, fleet: "f", id: "b")
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            for index in 0..<200 {
                (side == 0 ? a : b).store.set(
                    StoreKeyPath(segments: [.key("\(side)-\(index % 20)")]), .integer(Int64(index)))
            }
        }
        a.store.flush()
        b.store.flush()
        eventually("both have all 40 keys, equal") {
            a.store.snapshot() == b.store.snapshot() && a.store.snapshot().objectValue?.count == 40
        }
        #expect(a.store.get("0-19") == 199)
        #expect(a.store.get("1-19") == 199)
    }

    @Test func statusShowsTheServerWithoutCredentials() throws {
        let server = try RedisTestServer(extraArguments: ["--requirepass", "hunter2"])
        let a = try Instance("redis://:hunter2@127.0.0.1:\(server.port)/3", fleet: "f", id: "a")
        a.store.set("k", 1)
        a.store.flush()
        let status = try #require(a.store.backendStatus)
        #expect(status.location == "redis://127.0.0.1:\(server.port)/3")
        #expect(status.state == .connected)
        #expect(status.pending == 0)
        #expect(status.jsonObject == ["redis": .string(status.location), "state": "connected", "pending": 0])
        #expect(!"\(a.backend.url)".contains("hunter2"))
    }

    @Test func compactionKeepsTheStreamBounded() throws {
        let server = try RedisTestServer()
        var options = Instance.fastOptions
        options.streamLength = 100
        let a = try Instance(server.url, fleet: "f", id: "a", options: options)
        for index in 0..<3000 {
            a.store.set("counter", .integer(Int64(index)))
            // Ten more keys written and removed over and over: their removal stamps are one field each, however
            // many times.
            let key = StoreKeyPath(segments: [.key("k\(index % 10)")])
            if index % 3 == 0 { a.store.remove(key) } else { a.store.set(key, .integer(Int64(index))) }
            if index % 50 == 0 { a.store.flush() }
        }
        a.store.flush()
        let length = try inspect(server).call(["XLEN", "f:backend:settings:v1:log"]).integer ?? -1
        #expect(length > 0 && length < 400)
        let kept = a.store.snapshot().objectValue?.count ?? 0
        #expect(try inspect(server).call(["HLEN", "f:backend:settings:v1:doc"]) == .integer(Int64(kept)))
        #expect(try inspect(server).call(["HLEN", "f:backend:settings:v1:ver"]) == .integer(11))
        // A late reader that missed trimmed entries still gets the document.
        let late = try Instance(server.url, fleet: "f", id: "b")
        #expect(late.store.get("counter") == 2999)
        #expect(late.store.snapshot() == a.store.snapshot())
    }

    @Test func wholeDocumentPullAndPushWorkOnTheSameDocument() throws {
        let server = try RedisTestServer()
        let backend = try RedisBackend(url: server.url, fleet: "w", instance: "tool")
        #expect(try backend.pull(namespace: "settings") == nil)
        let a = try Instance(server.url, fleet: "w", id: "a")
        a.store.set("old", 1)
        a.store.flush()
        #expect(try backend.pull(namespace: "settings") == PersistedState(root: ["old": 1], version: .initial))
        // A whole push replaces the document: a live instance hears it as a change from the pusher.
        try backend.push(PersistedState(root: ["new": "x"], version: .initial), namespace: "settings")
        eventually("A has the pushed document") { a.store.snapshot() == ["new": "x"] }
        #expect(a.changes.all.last?.origin == "tool")
    }
}
