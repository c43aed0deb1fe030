import CLibWebSockets

/// Writes a whole HTTP/1.1 response (status line, headers, body) in one `lws_write`, as lws's own status pages do.
///
/// The security headers every response carries (`nosniff`, CORP) come from the vhost's header list, which lws adds
/// to every status line it writes (``securityHeaders``), so they are not repeated here. Bodies of any size are fine:
/// lws keeps what the socket does not take at once and sends it before the connection is writable again.
package enum LwsResponse {
    /// The headers lws puts on every response a listening context writes (its own error pages and file responses
    /// included; see ``LwsServiceThread``), and ``Refusal/rawResponse`` on the responses it writes itself.
    package static let securityHeaders: [(String, String)] = [
        ("x-content-type-options:", "nosniff"),
        ("cross-origin-resource-policy:", "same-origin"),
        // The token travels in the page's URL: never send it on as a referrer.
        ("referrer-policy:", "no-referrer"),
        ("x-frame-options:", "DENY"),
    ]

    /// Sends the response, then closes the connection (`Connection: close`): one request per connection.
    /// Returns what the lws callback must return. The answer to a `HEAD` request is the same status and headers
    /// (`Content-Length` included) without the body, as RFC 9110 asks.
    ///
    /// Why not keep-alive: lws 4.1 mishandles a POST pipelined behind an earlier request on the same connection
    /// (it hands the POST's own request line to the body callback, then its service loop spins). Closing after
    /// each answer costs a TCP handshake per request, which the dashboard (a few files and one WebSocket) does
    /// not notice; lws sends whatever is still buffered before it closes.
    package static func send(
        _ connection: LwsConnection, status: Int, contentType: String, body: [UInt8],
        headers: [(name: String, value: String)] = []
    ) -> Int32 {
        let wsi = connection.wsi
        let pre = kws_pre()
        let headerRoom = 1024 + headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        var buffer = [UInt8](repeating: 0, count: pre + headerRoom + body.count)
        buffer.withUnsafeMutableBufferPointer { raw in
            guard let base = raw.baseAddress else { return }
            let start = base + pre
            var cursor: UnsafeMutablePointer<UInt8>? = start
            let end = start + headerRoom
            var failed = lws_add_http_header_status(wsi, UInt32(status), &cursor, end) != 0
            failed = failed || add(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE, contentType, &cursor, end)
            failed = failed || add(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH, String(body.count), &cursor, end)
            failed = failed || add(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL, "no-store", &cursor, end)
            failed = failed || add(wsi, WSI_TOKEN_CONNECTION, "close", &cursor, end)
            for header in headers where !failed {
                failed = addNamed(wsi, header.name, header.value, &cursor, end)
            }
            failed = failed || lws_finalize_http_header(wsi, &cursor, end) != 0
            guard !failed, var position = cursor else { return }
            if isHead(connection) {
                _ = lws_write(wsi, start, position - start, LWS_WRITE_HTTP)
                return
            }
            body.withUnsafeBufferPointer { source in
                if let from = source.baseAddress, !source.isEmpty {
                    position.update(from: from, count: source.count)
                    position += source.count
                }
            }
            _ = lws_write(wsi, start, position - start, LWS_WRITE_HTTP)
        }
        return -1
    }

    /// Whether the request being answered is a `HEAD`.
    package static func isHead(_ connection: LwsConnection) -> Bool {
        lws_hdr_total_length(connection.wsi, LwsHeader.headPath.token) > 0
    }

    /// Writes bytes that are already a whole HTTP response (``Refusal/rawResponse``).
    package static func write(_ connection: LwsConnection, raw response: [UInt8]) {
        let wsi = connection.wsi
        var buffer = [UInt8](repeating: 0, count: kws_pre()) + response
        _ = buffer.withUnsafeMutableBufferPointer { raw in
            lws_write(wsi, raw.baseAddress! + kws_pre(), response.count, LWS_WRITE_HTTP)
        }
    }

    /// A refusal as a JSON error response (`{"error":{"code":…,"message":…}}`), with any headers it needs.
    package static func refuse(
        _ connection: LwsConnection, _ refusal: Refusal, headers: [(name: String, value: String)] = []
    ) -> Int32 {
        send(
            connection, status: refusal.status, contentType: "application/json", body: refusal.body,
            headers: refusal.extraHeaders + headers)
    }

    /// A JSON error: `{"error":{"code":…,"message":…}}`.
    package static func error(
        _ connection: LwsConnection, status: Int, code: String, message: String,
        headers: [(name: String, value: String)] = []
    ) -> Int32 {
        refuse(connection, Refusal(status: status, code: code, message: message), headers: headers)
    }

    /// A JSON body with status 200 (or another).
    package static func json(_ connection: LwsConnection, _ body: [UInt8], status: Int = 200) -> Int32 {
        send(connection, status: status, contentType: "application/json", body: body)
    }

    private static func add(
        _ wsi: OpaquePointer, _ token: lws_token_indexes, _ value: String,
        _ cursor: inout UnsafeMutablePointer<UInt8>?, _ end: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        let bytes = Array(value.utf8)
        return lws_add_http_header_by_token(wsi, token, bytes, Int32(bytes.count), &cursor, end) != 0
    }

    private static func addNamed(
        _ wsi: OpaquePointer, _ name: String, _ value: String,
        _ cursor: inout UnsafeMutablePointer<UInt8>?, _ end: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        let nameBytes = Array((name.lowercased() + ":").utf8) + [0]
        let bytes = Array(value.utf8)
        return lws_add_http_header_by_name(wsi, nameBytes, bytes, Int32(bytes.count), &cursor, end) != 0
    }
}
