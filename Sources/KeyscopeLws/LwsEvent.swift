import CLibWebSockets

/// Why lws calls back (its `LWS_CALLBACK_…` reasons): the ones the server, the client and the conformance echo act
/// on, and ``other`` for the rest, which lws's default handling answers.
///
/// ```swift
/// func handle(_ event: LwsEvent, on connection: LwsConnection, input: UnsafeMutableRawPointer?, length: Int)
///     -> Int32?
/// {
///     switch event {
///     case .serverWriteable: return writable(connection)
///     default: return nil      // lws's default handling
///     }
/// }
/// ```
package enum LwsEvent: Hashable, Sendable {
    // Every connection.
    /// The connection is about to be freed; its handle is not to be used afterwards (`WSI_DESTROY`).
    case wsiDestroy
    /// The timer set with ``LwsConnection/setTimer(microseconds:)`` fired (`TIMER`).
    case timer
    /// Another thread called ``LwsContextHandle/wake()``: the context's own event, not a connection's
    /// (`EVENT_WAIT_CANCELLED`).
    case eventWaitCancelled
    /// A descriptor adopted with ``LwsVhost/adoptRawFile(_:)`` is readable (`RAW_RX_FILE`).
    case rawFileReadable

    // A listening context's connections.
    /// lws accepted a connection; nothing of its request has been read (`SERVER_NEW_CLIENT_INSTANTIATED`).
    case accepted
    /// A request's headers are in (`HTTP`).
    case http
    /// A piece of the request's body, in `input` (`HTTP_BODY`).
    case httpBody
    /// The request's body is all in (`HTTP_BODY_COMPLETION`).
    case httpBodyCompletion
    /// A file served with ``LwsConnection/serveFile(_:contentType:extraHeaders:)`` was sent (`HTTP_FILE_COMPLETION`).
    case httpFileCompletion
    /// An HTTP connection closed (`CLOSED_HTTP`).
    case closedHTTP
    /// An HTTP connection may be written to (its answer was waited for: the server's request worker).
    case httpWriteable
    /// An upgrade to WebSocket is asked for; return 1 once a refusal was written (`HTTP_CONFIRM_UPGRADE`).
    case confirmUpgrade
    /// lws's last check before it upgrades; non-zero refuses (`FILTER_PROTOCOL_CONNECTION`).
    case filterProtocolConnection
    /// A WebSocket client is connected (`ESTABLISHED`).
    case established
    /// A piece of a WebSocket message, in `input` (`RECEIVE`; see ``MessageAssembly``).
    case receive
    /// The WebSocket connection can take a write (`SERVER_WRITEABLE`).
    case serverWriteable
    /// The WebSocket connection closed (`CLOSED`).
    case closed

    // A client context's connection.
    /// The WebSocket handshake succeeded (`CLIENT_ESTABLISHED`).
    case clientEstablished
    /// A piece of a message from the server, in `input` (`CLIENT_RECEIVE`).
    case clientReceive
    /// The connection can take a write (`CLIENT_WRITEABLE`).
    case clientWriteable
    /// The connection could not be made or the handshake failed; `input` holds lws's reason as text
    /// (`CLIENT_CONNECTION_ERROR`).
    case clientConnectionError
    /// The client connection closed (`CLIENT_CLOSED`).
    case clientClosed
    /// The peer sent a close frame; `input` holds its payload (`WS_PEER_INITIATED_CLOSE`).
    case peerInitiatedClose

    /// Any other reason.
    case other

    init(_ reason: lws_callback_reasons) {
        switch reason {
        case LWS_CALLBACK_WSI_DESTROY: self = .wsiDestroy
        case LWS_CALLBACK_TIMER: self = .timer
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED: self = .eventWaitCancelled
        case LWS_CALLBACK_RAW_RX_FILE: self = .rawFileReadable
        case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED: self = .accepted
        case LWS_CALLBACK_HTTP: self = .http
        case LWS_CALLBACK_HTTP_BODY: self = .httpBody
        case LWS_CALLBACK_HTTP_BODY_COMPLETION: self = .httpBodyCompletion
        case LWS_CALLBACK_HTTP_FILE_COMPLETION: self = .httpFileCompletion
        case LWS_CALLBACK_CLOSED_HTTP: self = .closedHTTP
        case LWS_CALLBACK_HTTP_WRITEABLE: self = .httpWriteable
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: self = .confirmUpgrade
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: self = .filterProtocolConnection
        case LWS_CALLBACK_ESTABLISHED: self = .established
        case LWS_CALLBACK_RECEIVE: self = .receive
        case LWS_CALLBACK_SERVER_WRITEABLE: self = .serverWriteable
        case LWS_CALLBACK_CLOSED: self = .closed
        case LWS_CALLBACK_CLIENT_ESTABLISHED: self = .clientEstablished
        case LWS_CALLBACK_CLIENT_RECEIVE: self = .clientReceive
        case LWS_CALLBACK_CLIENT_WRITEABLE: self = .clientWriteable
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR: self = .clientConnectionError
        case LWS_CALLBACK_CLIENT_CLOSED: self = .clientClosed
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE: self = .peerInitiatedClose
        default: self = .other
        }
    }
}
