import KeyscopeRedis
import Testing

@Suite struct RedisURLTests {
    @Test func parsesEveryPart() throws {
        let url = try RedisURL(parsing: "redis://app:s%40cret@cache.internal:6380/3")
        #expect(url.host == "cache.internal")
        #expect(url.port == 6380)
        #expect(url.db == 3)
        #expect(url.user == "app")
        #expect(url.password == "s@cret")
    }

    @Test func passwordOnlyAndDefaults() throws {
        let url = try RedisURL(parsing: "redis://:pw@localhost")
        #expect(url.user == nil)
        #expect(url.password == "pw")
        #expect(url.port == 6379)
        #expect(url.db == 0)
        #expect(try RedisURL(parsing: "redis://[::1]:7000/1").host == "::1")
    }

    @Test func descriptionNeverShowsCredentials() throws {
        let url = try RedisURL(parsing: "redis://app:topsecret@127.0.0.1:6379/2")
        #expect(url.description == "redis://127.0.0.1:6379/2")
        #expect(!"\(url)".contains("topsecret"))
        #expect(!String(reflecting: url.description).contains("app"))
    }

    @Test(arguments: [
        ("http://localhost:6379", "starts with redis://"),
        ("redis://localhost:0", "port must be a number from 1 to 65535"),
        ("redis://localhost:99999", "port must be"),
        ("redis://localhost:6379/x", "database after / must be a number"),
        ("redis://:6379", "has no host"),
    ])
    func badURLsSayWhatIsWrong(text: String, expected: String) {
        #expect {
            _ = try RedisURL(parsing: text)
        } throws: { error in
            guard let error = error as? RedisError else { return false }
            return error.code == .badURL && error.message.contains(expected)
        }
    }

    @Test func badURLErrorsNeverShowThePassword() {
        do {
            _ = try RedisURL(parsing: "redis://u:hunter2@host:notaport")
            Issue.record("expected an error")
        } catch {
            #expect(!"\(error)".contains("hunter2"))
        }
    }
}
