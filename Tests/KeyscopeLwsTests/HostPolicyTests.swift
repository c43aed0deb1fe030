import KeyscopeLws
import Testing

/// The DNS-rebinding and cross-site rules of docs/protocol.md, checked on header values alone.
@Suite struct HostPolicyTests {
    let policy = HostPolicy(port: 8081, extraHosts: ["devbox.local"], extraOrigins: ["http://localhost:5173"])

    @Test(arguments: [
        "localhost", "localhost:8081", "127.0.0.1", "127.0.0.1:8081", "[::1]", "[::1]:8081", "LOCALHOST:8081",
        "devbox.local:8081", "DevBox.Local",
    ])
    func allowsTheLoopbackNamesAndAllowedHosts(host: String) {
        #expect(policy.checkHost([host]) == .allowed)
    }

    @Test(arguments: [
        "localhost6", "localhost6:8081", "127.1", "127.1:8081", "0x7f.1", "0x7f000001", "2130706433", "localhost.",
        "localhost.:8081", "evil.com", "localhost:8082", "localhost:", "localhost:80810", "localhost:+80",
        "[::1", "::1", "[::ffff:127.0.0.1]:8081", "user@localhost:8081", "localhost:8081/", "localhost :8081",
        "127.0.0.1.nip.io", "", "[::1]x",
    ])
    func forbidsEveryOtherName(host: String) {
        guard case .forbidden = policy.checkHost([host]) else {
            Issue.record("Host \"\(host)\" was not forbidden: \(policy.checkHost([host]))")
            return
        }
    }

    @Test func aMissingHostIsForbiddenAndARepeatedOneIsMalformed() {
        guard case .forbidden = policy.checkHost([]) else {
            Issue.record("a missing Host was allowed")
            return
        }
        guard case .malformed = policy.checkHost(["localhost:8081", "localhost:8081"]) else {
            Issue.record("a repeated Host was not refused as malformed")
            return
        }
    }

    @Test(arguments: [
        ("http://localhost:8081", true), ("http://127.0.0.1:8081", true), ("http://[::1]:8081", true),
        ("http://devbox.local:8081", true), ("http://localhost:5173", true), ("http://localhost:8082", false),
        ("https://localhost:8081", false), ("http://evil.com:8081", false), ("null", false),
        ("http://localhost", false), ("http://localhost:8081/path", false), ("http://localhost.:8081", false),
        ("http://127.1:8081", false),
    ])
    func allowsOnlyThisServersOwnOriginsAndTheGivenOnes(origin: String, allowed: Bool) {
        #expect(policy.allowsOrigin(origin) == allowed)
    }

    @Test func anOriginWithoutPortMeansPort80() {
        let onEighty = HostPolicy(port: 80, extraHosts: [], extraOrigins: [])
        #expect(onEighty.allowsOrigin("http://localhost"))
        #expect(onEighty.checkHost(["localhost"]) == .allowed)
    }
}
