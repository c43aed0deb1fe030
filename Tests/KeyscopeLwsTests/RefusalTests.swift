import KeyscopeLws
import Testing

/// The raw answers written straight to a socket (past the connection cap, or before lws parsed the request).
@Suite struct RefusalTests {
    private func text(_ refusal: Refusal) -> String { String(decoding: refusal.rawResponse, as: UTF8.self) }

    @Test func unavailableSaysWhenToRetry() {
        let answer = text(Refusal(status: 503, code: "unavailable", message: "the server is full; retry"))
        #expect(answer.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(answer.contains("\r\nretry-after: 1\r\n"))
        #expect(answer.contains("\r\nconnection: close\r\n"))
        #expect(answer.hasSuffix(#"{"error":{"code":"unavailable","message":"the server is full; retry"}}"#))
    }

    @Test func unauthorizedKeepsItsChallengeAndNoRetry() {
        let answer = text(.unauthorized)
        #expect(answer.hasPrefix("HTTP/1.1 401 Unauthorized\r\n"))
        #expect(answer.contains("\r\nwww-authenticate: Bearer\r\n"))
        #expect(!answer.contains("retry-after"))
    }
}
