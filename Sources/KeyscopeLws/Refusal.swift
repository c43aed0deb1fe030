import KeyscopeCore

/// Why the server refuses an HTTP request or a WebSocket upgrade: the status, the wire code, and a message that says
/// what to do about it. Sent as `{"error":{"code":…,"message":…}}`.
package struct Refusal: Sendable, Hashable {
    package let status: Int
    package let code: String
    package let message: String

    package init(status: Int, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// A missing or wrong token (401, with `WWW-Authenticate: Bearer`).
    package static let unauthorized = Refusal(
        status: 401, code: "unauthorized",
        message: "a token is required: send `Authorization: Bearer TOKEN` or add ?token=TOKEN (the server printed it "
            + "at start)")

    /// The JSON body.
    package var body: [UInt8] { Self.body(code: code, message: message) }

    /// An HTTP error body: `{"error":{"code":…,"message":…}}`.
    package static func body(code: String, message: String) -> [UInt8] {
        StoreValue.object(["error": .object(["code": .string(code), "message": .string(message)])])
            .jsonBytes(sortedKeys: true)
    }

    /// Headers this refusal needs beside the usual ones.
    package var extraHeaders: [(name: String, value: String)] {
        switch status {
        case 401: [("www-authenticate", "Bearer")]
        case 503: [("retry-after", "1")]
        default: []
        }
    }

    /// The whole HTTP/1.1 response as bytes, security headers included, for the two places where lws's header
    /// helpers cannot be used: a refused upgrade (lws would write an `HTTP/1.0` status line there, which some
    /// WebSocket clients cannot read) and a request lws dropped while parsing it (the server's `RawRefusal`).
    package var rawResponse: [UInt8] {
        let body = body
        var head = "HTTP/1.1 \(status) \(Self.reasons[status] ?? "Error")\r\n"
        for (name, value) in LwsResponse.securityHeaders { head += "\(name) \(value)\r\n" }
        for (name, value) in extraHeaders { head += "\(name): \(value)\r\n" }
        head += "content-type: application/json\r\ncontent-length: \(body.count)\r\nconnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    private static let reasons = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        413: "Payload Too Large", 431: "Request Header Fields Too Large", 503: "Service Unavailable",
    ]
}
