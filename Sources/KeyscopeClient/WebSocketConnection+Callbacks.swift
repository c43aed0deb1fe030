import KeyscopeLws
import Synchronization

/// What the service thread does in lws's callbacks: all of it runs on the service thread. The context's teardown
/// reaches none of it (``KeyscopeLws/LwsClientContext/destroy()``).
extension WebSocketConnection: LwsCallbackHandler {
    /// The lws callback's work for this connection; every event is answered here (never lws's default).
    func handle(_ event: LwsEvent, on wsi: LwsConnection, input: UnsafeMutableRawPointer?, length: Int) -> Int32? {
        switch event {
        case .clientEstablished:
            self.wsi = wsi
            established = true
            onEvent(.opened)
            wake()
        case .clientReceive:
            return receive(wsi, input, length)
        case .clientWriteable:
            return writeable(wsi)
        case .peerInitiatedClose:
            peerClose = Self.closePayload(input, length)
        case .clientConnectionError:
            let text = input.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) }
            let reported = wsi.responseStatus
            let status = reported > 0 ? reported : Self.status(inReason: text)
            self.wsi = nil
            if outcome == nil {
                let closing = shared.withLock { $0.closeRequest != nil }
                outcome = .failed(
                    httpStatus: status,
                    reason: closing ? "closed by this client before the connection opened" : text ?? "unknown error")
            }
        case .clientClosed:
            self.wsi = nil
            if outcome == nil {
                outcome =
                    established
                    ? .closed(closure(closingCause ?? .dropped)) : .failed(httpStatus: nil, reason: "closed")
            }
        case .eventWaitCancelled:
            wake()
        case .wsiDestroy where wsi == clientWSI && outcome == nil:
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
            if pending || closing || writing != nil { wsi.callbackOnWritable() }
        } else if closing {
            wsi.closeNow()
        }
    }

    private func receive(_ wsi: LwsConnection, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
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
            wsi.callbackOnWritable()
            return 0
        }
    }

    private func writeable(_ wsi: LwsConnection) -> Int32 {
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
        guard wsi.writeTextFragment(fragment.bytes, isFirst: fragment.isFirst, isLast: fragment.isLast) else {
            return -1
        }
        let more = writing != nil || shared.withLock { !$0.outgoing.isEmpty || $0.closeRequest != nil }
        if more { wsi.callbackOnWritable() }
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

    /// The code and reason of a close frame's payload (`input`/`length` of `.peerInitiatedClose`).
    static func closePayload(_ input: UnsafeMutableRawPointer?, _ length: Int) -> (code: Int?, reason: String) {
        guard let input, length >= 2 else { return (nil, "") }
        let bytes = UnsafeRawBufferPointer(start: input, count: length)
        let code = Int(bytes[0]) << 8 | Int(bytes[1])
        return (code, String(decoding: bytes.dropFirst(2), as: UTF8.self))
    }

    /// The HTTP status a handshake failure names, for when ``KeyscopeLws/LwsConnection/responseStatus`` has none left: lws 4.1
    /// says "HS: ws upgrade unauthorized" for a 401 and "HS: ws upgrade response not 101" for any other status.
    static func status(inReason reason: String?) -> Int? {
        reason?.contains("unauthorized") == true ? 401 : nil
    }
}
