import CLibWebSockets

/// One lws connection (lws's `wsi`), with the calls the server, the client and the conformance echo make on it.
/// The only way out of this module to a connection: what lws offers beyond these calls stays here.
///
/// ```swift
/// case .established: sessions[connection] = Session(connection); connection.callbackOnWritable()
/// case .serverWriteable: _ = message.write(to: connection)
/// ```
/// A handle, not an owner: lws frees the connection after its `.wsiDestroy` event, and the handle must not be used
/// after that. Like every lws call, only the service thread of the connection's context may use it.
package struct LwsConnection: Hashable {
    /// lws's own handle.
    let wsi: OpaquePointer

    init(_ wsi: OpaquePointer) { self.wsi = wsi }

    /// Asks lws for a writable event (`.serverWriteable` or `.clientWriteable`) once the socket can take more.
    package func callbackOnWritable() {
        lws_callback_on_writable(wsi)
    }

    /// The connection's socket (-1 when it has none).
    package var socketDescriptor: Int32 { lws_get_socket_fd(wsi) }

    /// Whether lws still holds bytes of an earlier write that the socket did not take.
    package var hasBufferedOutput: Bool { lws_partial_buffered(wsi) != 0 }

    /// Whether lws reads the socket (`lws_rx_flow_control`). `immediately` applies the change at once rather than
    /// at lws's next turn, which a connection lws has not read from yet needs.
    package func setReceiving(_ enabled: Bool, immediately: Bool = false) {
        let flag = immediately ? Int32(LWS_RXFLOW_REASON_FLAG_PROCESS_NOW) : 0
        _ = lws_rx_flow_control(wsi, (enabled ? 1 : 0) | flag)
    }

    // MARK: Timeouts and timers

    /// lws closes the connection once `seconds` pass, unless ``clearTimeout()`` or another timeout comes first.
    /// `reason` (1 or more) tells the owner's timeouts apart in lws's log.
    package func setTimeout(seconds: Int, reason: Int) {
        let code = pending_timeout(rawValue: PENDING_TIMEOUT_USER_REASON_BASE.rawValue + UInt32(max(1, reason)))
        lws_set_timeout(wsi, code, Int32(clamping: max(1, seconds)))
    }

    /// Lifts the timeout set with ``setTimeout(seconds:reason:)``.
    package func clearTimeout() {
        lws_set_timeout(wsi, NO_PENDING_TIMEOUT, 0)
    }

    /// Has lws close the connection at its next turn (safe from the connection's own callback).
    package func closeSoon() {
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }

    /// Closes the connection now. Never from a callback lws is running for this connection.
    package func closeNow() {
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC)
    }

    /// A `.timer` event for this connection after `microseconds`.
    package func setTimer(microseconds: Int) {
        lws_set_timer_usecs(wsi, lws_usec_t(microseconds))
    }

    // MARK: HTTP

    /// Streams a file from disk as the response (lws reads it in pieces, never whole); `extraHeaders` are whole
    /// header lines, each ending in CR LF. False when lws could not start it: the callback then returns -1.
    package func serveFile(_ path: String, contentType: String, extraHeaders: String) -> Bool {
        lws_serve_http_file(wsi, path, contentType, extraHeaders, Int32(extraHeaders.utf8.count)) == 0
    }

    /// The status of the HTTP response a client connection received (0 when none).
    package var responseStatus: Int { Int(lws_http_client_http_response(wsi)) }
}
