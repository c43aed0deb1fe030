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
