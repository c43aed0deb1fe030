import Foundation
import KeyscopeRedis
import KeyscopeTesting
import Testing

/// The client against a real redis-server that each test starts on a port of its own.
@Suite struct RedisClientTests {
    @Test func repliesOfEveryType() throws {
        let server = try RedisTestServer()
        let redis = try RedisConnection(url: RedisURL(parsing: server.url))
        #expect(try redis.call(["SET", "greeting", "hello"]) == .status("OK"))
        #expect(try redis.call(["GET", "greeting"]) == .bulk(Array("hello".utf8)))
        #expect(try redis.call(["GET", "missing"]) == .null)
        #expect(try redis.call(["INCRBY", "counter", "41"]) == .integer(41))
        #expect(try redis.call(["RPUSH", "list", "a", "", "c"]) == .integer(3))
        #expect(
            try redis.call(["LRANGE", "list", "0", "-1"]) == .array([.bulk(Array("a".utf8)), .bulk([]), .bulk([99])]))
        #expect(
            try redis.call(["EVAL", "return {1, {2, 'x'}, redis.status_reply('FINE')}", "0"])
                == .array([.integer(1), .array([.integer(2), .bulk([120])]), .status("FINE")]))
        #expect(try redis.call(["EVAL", "return false", "0"]) == .null)
        // An error reply is a value from `send` and a thrown `server` error from `call`; the connection stays open.
        guard case .error(let message) = try redis.send(["LPUSH", "greeting", "x"]) else {
            Issue.record("expected an error reply")
            return
        }
        #expect(message.hasPrefix("WRONGTYPE"))
        #expect {
            try redis.call(["NOSUCHCOMMAND"])
        } throws: { error in
            (error as? RedisError)?.code == .server && "\(error)".contains("NOSUCHCOMMAND")
        }
        #expect(redis.isOpen)
        #expect(try redis.call(["PING"]) == .status("PONG"))
    }

    @Test func binarySafeArguments() throws {
        let server = try RedisTestServer()
        let redis = try RedisConnection(url: RedisURL(parsing: server.url))
        let bytes: [UInt8] = [0, 255, 10, 13, 0, 1]
        try redis.call(bytes: [Array("SET".utf8), Array("bin".utf8), bytes])
        #expect(try redis.call(["GET", "bin"]) == .bulk(bytes))
        #expect(try redis.call(["STRLEN", "bin"]) == .integer(6))
    }

    @Test func selectsTheURLsDatabase() throws {
        let server = try RedisTestServer()
        let zero = try RedisConnection(url: RedisURL(parsing: server.url))
        let five = try RedisConnection(url: RedisURL(parsing: server.url + "/5"))
        try five.call(["SET", "where", "five"])
        #expect(try zero.call(["GET", "where"]) == .null)
        #expect(try zero.call(["SELECT", "5"]) == .status("OK"))
        #expect(try zero.call(["GET", "where"]).string == "five")
        #expect {
            _ = try RedisConnection(url: RedisURL(parsing: server.url + "/999"))
        } throws: { error in
            (error as? RedisError)?.code == .server && "\(error)".contains("SELECT")
        }
    }

    @Test func passwordAuth() throws {
        let server = try RedisTestServer(extraArguments: ["--requirepass", "pa55word"])
        let good = try RedisConnection(url: RedisURL(parsing: "redis://:pa55word@127.0.0.1:\(server.port)"))
        #expect(try good.call(["PING"]) == .status("PONG"))
        assertAuthError(try RedisConnection(url: RedisURL(parsing: "redis://:wrong@127.0.0.1:\(server.port)")))
        // No password: the first command that needs one is refused as `auth`.
        let anonymous = try RedisConnection(url: RedisURL(parsing: server.url))
        #expect {
            try anonymous.call(["GET", "x"])
        } throws: { error in
            (error as? RedisError)?.code == .auth
        }
    }

    @Test func aclUserAuth() throws {
        let server = try RedisTestServer(extraArguments: ["--user", "shop", "on", ">shoppass", "~*", "&*", "+@all"])
        let url = try RedisURL(parsing: "redis://shop:shoppass@127.0.0.1:\(server.port)/1")
        let redis = try RedisConnection(url: url)
        #expect(try redis.call(["ACL", "WHOAMI"]).string == "shop")
        assertAuthError(try RedisConnection(url: RedisURL(parsing: "redis://shop:nope@127.0.0.1:\(server.port)")))
    }

    @Test func unreachableServerIsAConnectError() throws {
        let port = try RedisTestServer.freePort()
        #expect {
            _ = try RedisConnection(url: RedisURL(parsing: "redis://u:secretpw@127.0.0.1:\(port)"))
        } throws: { error in
            guard let error = error as? RedisError else { return false }
            return error.code == .connect && error.isConnectionProblem && !"\(error)".contains("secretpw")
                && "\(error)".contains("redis://127.0.0.1:\(port)/0")
        }
    }

    @Test func clientReconnectsAfterTheServerRestarts() throws {
        let server = try RedisTestServer()
        let client = RedisClient(url: try RedisURL(parsing: server.url), connectTimeout: .seconds(1))
        try client.call(["SET", "k", "v"])
        #expect(client.isConnected)
        try server.restart(keepingData: false)
        // The old connection broke: the first command fails as a connection problem and drops it…
        #expect {
            try client.call(["GET", "k"])
        } throws: { error in
            (error as? RedisError)?.isConnectionProblem == true
        }
        #expect(!client.isConnected)
        // …and the next one connects again (the restarted server is empty).
        #expect(try client.call(["GET", "k"]) == .null)
        server.stop()
        #expect {
            try client.call(["PING"])
        } throws: { error in
            (error as? RedisError)?.isConnectionProblem == true
        }
        try server.start()
        // `start` returns once the server accepts connections: the next command connects again.
        let reply = try client.call(["PING"])
        #expect(reply == .status("PONG"))
    }

    @Test func backoffDoublesUpToItsMaximumAndResets() {
        var backoff = RedisBackoff(initial: .milliseconds(100), maximum: .milliseconds(500))
        #expect(backoff.nextDelay() == .milliseconds(100))
        #expect(backoff.nextDelay() == .milliseconds(200))
        #expect(backoff.nextDelay() == .milliseconds(400))
        #expect(backoff.nextDelay() == .milliseconds(500))
        #expect(backoff.nextDelay() == .milliseconds(500))
        backoff.reset()
        #expect(backoff.nextDelay() == .milliseconds(100))
    }

    private func assertAuthError(_ make: @autoclosure () throws -> RedisConnection) {
        do {
            _ = try make()
            Issue.record("expected the login to be refused")
        } catch let error as RedisError {
            #expect(error.code == .auth)
            #expect(error.message.contains("check the credentials"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
