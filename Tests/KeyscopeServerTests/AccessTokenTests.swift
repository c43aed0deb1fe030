import Testing

@testable import KeyscopeServer

@Suite struct AccessTokenTests {
    @Test func randomTokensAreLongURLSafeAndDifferent() {
        let tokens = (0..<50).map { _ in AccessToken.random().value }
        #expect(Set(tokens).count == tokens.count)
        for token in tokens {
            #expect(token.utf8.count == 43)  // 256 bits in base64url without padding
            #expect(token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        }
    }

    /// One in 64 base64url texts starts with `-`, which a command line takes for an option (`--token -x…`).
    @Test func randomTokensNeverStartWithADash() {
        let tokens = (0..<2000).map { _ in AccessToken.random().value }
        #expect(tokens.allSatisfy { !$0.hasPrefix("-") })
        #expect(tokens.contains { $0.contains("-") }, "dashes elsewhere are still drawn")
    }

    @Test func matchesOnlyTheExactToken() throws {
        let token = try AccessToken.validated("abcdefghijklmnop-123").get()
        #expect(token.matches("abcdefghijklmnop-123".utf8))
        #expect(!token.matches("abcdefghijklmnop-124".utf8))
        #expect(!token.matches("abcdefghijklmnop-12".utf8))
        #expect(!token.matches("abcdefghijklmnop-1234".utf8))
        #expect(!token.matches("".utf8))
        // A prefix repeated to the right length must not pass.
        #expect(!token.matches("abcdefghijklmnop-123abcdefghijklmnop-123".utf8))
    }

    @Test(arguments: ["short", "has space in it long enough", "percent%2Fencoded-token", "slash/in/the/token/x"])
    func refusesTokensThatAreShortOrNotURLSafe(text: String) {
        guard case .failure(.invalidOption) = AccessToken.validated(text) else {
            Issue.record("\"\(text)\" was accepted as a token")
            return
        }
    }
}
