import CLibWebSockets
import KeyscopeLws
import Synchronization

/// The C callback of every client connection's one protocol: a capture-free function that finds its
/// ``WebSocketConnection`` through the context's user pointer (an `Unmanaged` the service thread sets to nil before
/// `lws_context_destroy`, so that teardown callbacks do nothing).
func keyscopeClientCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else { return 0 }
    let slot = owner.assumingMemoryBound(to: Unmanaged<WebSocketConnection>?.self)
    guard let connection = slot.pointee?.takeUnretainedValue() else { return 0 }
    return connection.handle(wsi, reason, input, length)
}

/// What the service thread does in lws's callbacks: all of it runs on the service thread.
extension WebSocketConnection {
    /// The lws callback's work for this connection (see ``keyscopeClientCallback``).
    func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ input: UnsafeMutableRawPointer?, _ length: Int
    ) -> Int32 {
        switch reason {
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            self.wsi = wsi
            established = true
            onEvent(.opened)
            wake()
        case LWS_CALLBACK_CLIENT_RECEIVE:
            return receive(wsi, input, length)
        case LWS_CALLBACK_CLIENT_WRITEABLE:
            return writeable(wsi)
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            peerClose = Self.closePayload(input, length)
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            let text = input.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) }
            let reported = Int(lws_http_client_http_response(wsi))
            let status = reported > 0 ? reported : Self.status(inReason: text)
            self.wsi = nil
            if outcome == nil {
                let closing = shared.withLock { $0.closeRequest != nil }
                outcome = .failed(
                    httpStatus: status,
                    reason: closing ? "closed by this client before the connection opened" : text ?? "unknown error")
            }
        case LWS_CALLBACK_CLIENT_CLOSED:
            self.wsi = nil
            if outcome == nil {
                outcome =
                    established
                    ? .closed(closure(closingCause ?? .dropped)) : .failed(httpStatus: nil, reason: "closed")
            }
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            wake()
        case LWS_CALLBACK_WSI_DESTROY where wsi == clientWSI && outcome == nil:
            // Only when lws ended the connection without an error or close callback first.
            self.wsi = nil
            outcome =
                established
                ? .closed(closure(closingCause ?? .dropped)) : .failed(httpStatus: nil, reason: "the connection ended")
        default:
            break
        }
        return 0
    }

    /// After `lws_cancel_service` (or once open): asks for a writeable callback when there is something to write
    /// or a close to send; before the connection opened, a close request abandons the attempt. Never called while
    /// lws services this connection's own handle, so the synchronous kill is allowed (`LWS_TO_KILL_ASYNC` left a
    /// connection waiting for its handshake answer alone in lws 4.1.6).
    func wake() {
        guard let wsi else { return }
        let (pending, closing) = shared.withLock { (!$0.outgoing.isEmpty, $0.closeRequest != nil) }
        if established {
            if pending || closing || writing != nil { lws_callback_on_writable(wsi) }
        } else if closing {
            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC)
        }
    }

    private func receive(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard !incoming.overLimit else { return 0 }
        switch incoming.receive(wsi, input, length) {
        case .partial:
            return 0
        case .complete(let message, _):
            onEvent(.message(message))
            return 0
        case .overLimit:
            // Closing from inside the receive callback (returning -1 there) crashes lws 4.1.6 when more frames are
            // buffered; the rest of the input is dropped and the close goes out from the writeable callback.
            lws_callback_on_writable(wsi)
            return 0
        }
    }

    private func writeable(_ wsi: OpaquePointer) -> Int32 {
        if incoming.overLimit {
            closingCause = .tooLarge
            return WebSocketClose.close(wsi, code: 1009, reason: "message too large")
        }
        if writing == nil {
            let next: [UInt8]?
            let closeRequest: (code: Int, reason: String)?
            (next, closeRequest) = shared.withLock { shared in
                shared.outgoing.isEmpty ? (nil, shared.closeRequest) : (shared.outgoing.removeFirst(), nil)
            }
            if let next {
                writing = FragmentedMessage(next, fragmentSize: settings.fragmentBytes)
            } else if let closeRequest {
                closingCause = .client
                return WebSocketClose.close(wsi, code: closeRequest.code, reason: closeRequest.reason)
            } else {
                return 0
            }
        }
        guard var message = writing, let fragment = message.next() else {
            writing = nil
            return 0
        }
        writing = message.isDone ? nil : message
        let pre = kws_pre()
        var buffer = [UInt8](repeating: 0, count: pre + fragment.bytes.count)
        buffer.replaceSubrange(pre..., with: fragment.bytes)
        let flags = lws_write_ws_flags(
            Int32(LWS_WRITE_TEXT.rawValue), fragment.isFirst ? 1 : 0, fragment.isLast ? 1 : 0)
        let written = buffer.withUnsafeMutableBufferPointer { all in
            lws_write(wsi, all.baseAddress! + pre, fragment.bytes.count, lws_write_protocol(UInt32(flags)))
        }
        guard written >= 0 else { return -1 }
        let more = writing != nil || shared.withLock { !$0.outgoing.isEmpty || $0.closeRequest != nil }
        if more { lws_callback_on_writable(wsi) }
        return 0
    }

    func closure(_ cause: WebSocketClosure.Cause) -> WebSocketClosure {
        switch cause {
        case .client, .tooLarge:
            return WebSocketClosure(cause: cause, code: nil, reason: "")
        case .server, .dropped:
            guard let peerClose else { return WebSocketClosure(cause: .dropped, code: nil, reason: "") }
            return WebSocketClosure(cause: .server, code: peerClose.code, reason: peerClose.reason)
        }
    }

    /// The code and reason of a close frame's payload (`in`/`len` of `LWS_CALLBACK_WS_PEER_INITIATED_CLOSE`).
    static func closePayload(_ input: UnsafeMutableRawPointer?, _ length: Int) -> (code: Int?, reason: String) {
        guard let input, length >= 2 else { return (nil, "") }
        let bytes = UnsafeRawBufferPointer(start: input, count: length)
        let code = Int(bytes[0]) << 8 | Int(bytes[1])
        return (code, String(decoding: bytes.dropFirst(2), as: UTF8.self))
    }

    /// The HTTP status a handshake failure names, for when `lws_http_client_http_response` has none left: lws 4.1
    /// says "HS: ws upgrade unauthorized" for a 401 and "HS: ws upgrade response not 101" for any other status.
    static func status(inReason reason: String?) -> Int? {
        reason?.contains("unauthorized") == true ? 401 : nil
    }
}
