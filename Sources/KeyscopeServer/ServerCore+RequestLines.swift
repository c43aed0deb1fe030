import CLibWebSockets
import KeyscopeInspector

/// The request line as sent, before lws parses it (see ``RequestLineCapture``): kept for the `/tune` and
/// `/api/preferences` routes, and a `/tune/…` or `/api/preferences/…` path that cannot be decoded refused at once,
/// while lws could still mangle it.
extension ServerCore {
    /// lws accepted a connection (`LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED`).
    func accepted(_ wsi: OpaquePointer) {
        if requestLines.accepted(wsi) { screen(wsi) }
    }

    /// Whether the connection's lws timer is the capture's (the server sets no other).
    func ownsTimer(of wsi: OpaquePointer) -> Bool {
        requestLines.isHolding(wsi) || refusedEarly.contains(wsi)
    }

    /// A connection's timer fired (`LWS_CALLBACK_TIMER`); -1 closes a connection refused by ``screen(_:)``.
    func timerFired(_ wsi: OpaquePointer) -> Int32 {
        if refusedEarly.remove(wsi) != nil { return -1 }
        if requestLines.timer(wsi) { screen(wsi) }
        return 0
    }

    /// The connection is gone (`LWS_CALLBACK_WSI_DESTROY`).
    func destroyed(_ wsi: OpaquePointer) {
        requestLines.forget(wsi)
        refusedEarly.remove(wsi)
    }

    /// Refuses a request for `/tune/…` or `/api/preferences/…` whose path segments do not decode (a bad escape
    /// such as `%zz`, a control character such as `%0A`, bytes that are not UTF-8) with 400 `bad_request`, before
    /// lws parses it: lws would answer a bad escape with its own HTML 403 and cut the request line at a decoded
    /// line break. Like lws's own refusals of requests it cannot parse, this comes before the Host and token checks.
    /// The socket is held (lws reads no more of it) and closed from its timer.
    private func screen(_ wsi: OpaquePointer) {
        guard let line = requestLines.line(wsi).flatMap(RawRequestLine.init),
            let error = line.undecodableSegment
        else { return }
        RawRefusal.send(wsi, Refusal(status: 400, code: error.code.rawValue, message: error.message))
        _ = lws_rx_flow_control(wsi, Int32(LWS_RXFLOW_REASON_FLAG_PROCESS_NOW))
        refusedEarly.insert(wsi)
        lws_set_timer_usecs(wsi, 1)
    }
}
