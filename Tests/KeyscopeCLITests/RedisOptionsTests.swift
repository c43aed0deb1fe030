import ArgumentParser
import KeyscopeCore
import Testing

@testable import keyscope

/// `serve --demo --redis URL [--fleet NAME] [--instance ID]` and `KEYSCOPE_REDIS_URL`.
@Suite struct RedisOptionsTests {
    @Test func withoutAURLTheBackendStaysInTheProcess() throws {
        let options = try ServeCommand.parse(["--demo"]).redisOptions
        #expect(options.url(environment: [:]) == nil)
        #expect(try options.makeBackend(environment: [:]) is InMemoryBackend)
        #expect(RedisOptions.describe(InMemoryBackend()) == nil)
    }

    @Test func theURLComesFromTheOptionOrTheEnvironment() throws {
        let given = try ServeCommand.parse(["--demo", "--redis", "redis://a:1"]).redisOptions
        #expect(given.url(environment: ["KEYSCOPE_REDIS_URL": "redis://b:2"]) == "redis://a:1")
        let none = try ServeCommand.parse(["--demo"]).redisOptions
        #expect(none.url(environment: ["KEYSCOPE_REDIS_URL": "redis://b:2"]) == "redis://b:2")
        #expect(none.url(environment: ["KEYSCOPE_REDIS_URL": ""]) == nil)
    }

    @Test func aRedisBackendIsDescribedWithoutCredentials() throws {
        let options = try ServeCommand.parse([
            "--demo", "--redis", "redis://app:s3cret@127.0.0.1:6390/2", "--fleet", "shop", "--instance", "shop-1",
        ]).redisOptions
        // Making the backend connects to nothing yet.
        let backend = try options.makeBackend(environment: [:])
        #expect(RedisOptions.describe(backend) == "redis://127.0.0.1:6390/2 (fleet shop, instance shop-1)")
    }

    @Test(arguments: [
        (["--redis", "http://u:pw-123@h:1"], "starts with redis://"),
        (["--redis", "redis://u:pw-123@h:99999"], "port must be"),
        (["--redis", "redis://h:1", "--fleet", "a b"], "fleet name"),
        (["--redis", "redis://h:1", "--instance", String(repeating: "x", count: 65)], "instance id"),
        (["--fleet", "shop"], "need --redis"),
    ])
    func badOptionsSayWhatIsWrongWithoutThePassword(arguments: [String], expected: String) throws {
        let options = try ServeCommand.parse(["--demo"] + arguments).redisOptions
        do {
            _ = try options.makeBackend(environment: [:])
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains(expected))
            #expect(!"\(error)".contains("pw-123"))
        }
    }
}
