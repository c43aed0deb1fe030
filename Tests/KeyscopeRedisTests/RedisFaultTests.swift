import Foundation
import KeyscopeCore
import KeyscopeRedis
import KeyscopeTesting
import Testing

/// Redis down at the start, stopped for a while, restarted with and without its data: nothing is wiped, nothing
/// stale is pushed over newer data, and the instances converge once it is back.
@Suite struct RedisFaultTests {
    @Test func downAtStartWritesStayLocalAndArePushedWhenItComes() throws {
        let server = try RedisTestServer()
        server.stop()
        let a = try Instance(server.url, fleet: "f", id: "a")
        #expect(a.store.snapshot() == [:])
        #expect(a.store.backendStatus?.state == .connecting)
        #expect(a.store.set("offline", "written while Redis was down"))
        #expect(a.store.backendStatus?.pending == 1)
        try server.start()
        eventually("A connected and pushed") {
            a.store.backendStatus?.state == .connected && a.store.backendStatus?.pending == 0
        }
        let b = try Instance(server.url, fleet: "f", id: "b")
        #expect(b.store.get("offline") == "written while Redis was down")
    }

    /// An instance started while Redis is down writes its defaults (as the demo does) into an empty store; when
    /// Redis returns, those never replace what the document holds (they may be far older than the fleet's values),
    /// and only the keys it lacks are pushed (docs/fleet.md "The conflict rule").
    @Test func writesMadeBeforeTheFirstSyncNeverOverwriteWhatRedisHolds() throws {
        let server = try RedisTestServer(persistent: true)
        let a = try Instance(server.url, fleet: "f", id: "a")
        a.store.set("flags", ["newCheckout": true, "giftCards": true])
        a.store.set("banner", "Winter sale")
        a.store.flush()
        #expect(a.store.backendStatus?.pending == 0)
        server.stop()  // saves its data: it comes back with it
        let b = try Instance(server.url, fleet: "f", id: "b")
        #expect(b.store.backendStatus?.state == .connecting)
        #expect(b.store.snapshot() == [:])
        b.store.set("flags", ["newCheckout": false, "giftCards": false])
        b.store.set("banner", "Free shipping")
        b.store.set("onlyB", 1)
        b.store.set("flags.giftCards", true)  // a change after the defaults, still before the first sync
        // The changes since the oldest one whose key still waits (banner's, the second; flags was changed again).
        #expect(b.store.backendStatus?.pending == 3)
        try server.start()
        eventually("B synced") {
            b.store.backendStatus?.state == .connected && b.store.backendStatus?.pending == 0
        }
        let fleet: StoreValue = [
            "flags": ["newCheckout": true, "giftCards": true], "banner": "Winter sale", "onlyB": 1,
        ]
        eventually("A has B's new key") { a.store.get("onlyB") == 1 }
        #expect(b.store.snapshot() == fleet)
        #expect(a.store.snapshot() == fleet)
        #expect(try Instance(server.url, fleet: "f", id: "c").store.snapshot() == fleet)
        // The catch-up is one ordinary change on B, from the instance that wrote the document.
        let catchUp = try #require(b.changes.all.last { $0.origin != nil })
        #expect(catchUp.origin == "a")
        #expect(Set(catchUp.patches.map(\.keyPath.description)) == ["flags", "banner"])
        // From the first sync on, B's writes win like anyone's.
        b.store.set("banner", "From B")
        eventually("A has B's banner") { a.store.get("banner") == "From B" }
    }

    @Test func downForAWhileThenCaughtUpBothWays() throws {
        let server = try RedisTestServer(persistent: true)
        let a = try Instance(server.url, fleet: "f", id: "a")
        let b = try Instance(server.url, fleet: "f", id: "b")
        a.store.set("before", 1)
        eventually("B has before") { b.store.get("before") == 1 }
        server.stop()  // saves its data: it comes back with it
        a.store.set("fromA", "a")
        b.store.set("fromB", "b")
        eventually("A sees Redis is gone") { a.store.backendStatus?.state == .disconnected }
        #expect(a.store.backendStatus?.pending == 1)
        try server.start()
        eventually("converged") {
            a.store.snapshot() == b.store.snapshot() && a.store.snapshot().objectValue?.count == 3
        }
        #expect(a.store.backendStatus?.state == .connected)
        #expect(b.store.backendStatus?.pending == 0)
    }

    /// Redis that cannot run a push (`CLIENT PAUSE … WRITE` holds every script) never holds a writer: every write
    /// returns and is in the store, pending; once Redis runs them again the other instance has them all.
    @Test func aSlowRedisNeverHoldsAWriter() throws {
        let server = try RedisTestServer()
        let a = try Instance(server.url, fleet: "f", id: "a")
        let b = try Instance(server.url, fleet: "f", id: "b")
        a.store.set("warm", 1)
        eventually("B has warm") { b.store.get("warm") == 1 && a.store.backendStatus?.pending == 0 }
        let admin = try inspect(server)
        try admin.call(["CLIENT", "PAUSE", "60000", "WRITE"])
        for index in 0..<200 {
            #expect(a.store.set(StoreKeyPath(segments: [.key("k\(index % 5)")]), .integer(Int64(index))))
        }
        // Every write returned while Redis could run none of the pushes.
        #expect(a.store.get("k4") == 199)
        #expect((a.store.backendStatus?.pending ?? 0) > 0)
        #expect(b.store.get("k4") == nil)
        try admin.call(["CLIENT", "UNPAUSE"])
        eventually("B has every write, nothing pending") {
            b.store.snapshot() == a.store.snapshot() && a.store.backendStatus?.pending == 0
        }
        #expect(b.store.get("k4") == 199)
    }

    @Test func restartedEmptyNothingIsWipedAndTheDocumentIsRefilled() throws {
        let server = try RedisTestServer()
        let a = try Instance(server.url, fleet: "f", id: "a")
        let b = try Instance(server.url, fleet: "f", id: "b")
        a.store.set("plan", "gold")
        b.store.set("seats", 5)
        eventually("synced") { a.store.snapshot() == b.store.snapshot() && b.store.get("plan") == "gold" }
        try server.restart(keepingData: false)
        // Both keep their data, push what the new document lacks, and go on syncing.
        eventually("Redis holds the document again") {
            (try? inspect(server).call(["HLEN", "f:backend:settings:v1:doc"]).integer) == 2
        }
        #expect(a.store.snapshot() == ["plan": "gold", "seats": 5])
        #expect(b.store.snapshot() == ["plan": "gold", "seats": 5])
        b.store.set("plan", "platinum")
        eventually("A hears B after the restart") { a.store.get("plan") == "platinum" }
        #expect(try Instance(server.url, fleet: "f", id: "c").store.snapshot() == ["plan": "platinum", "seats": 5])
    }

    @Test func restartedFromAnOlderSaveNewerKeysArePushedBack() throws {
        let server = try RedisTestServer(persistent: true)
        let a = try Instance(server.url, fleet: "f", id: "a")
        a.store.set("v", 1)
        a.store.flush()
        try inspect(server).call(["SAVE"])  // the save Redis will come back from
        a.store.set("v", 2)
        a.store.set("w", "after the save")
        a.store.flush()
        server.kill()  // no save at exit: it restarts from the older one
        try server.start()
        eventually("Redis has the newer values again") {
            (try? inspect(server).call(["HGET", "f:backend:settings:v1:doc", "v"]).string) == "2"
        }
        #expect(a.store.snapshot() == ["v": 2, "w": "after the save"])
        #expect(try Instance(server.url, fleet: "f", id: "b").store.snapshot() == ["v": 2, "w": "after the save"])
    }
}
