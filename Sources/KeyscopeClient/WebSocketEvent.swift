/// What a ``WebSocketConnection`` reports, on its service thread, in this order: at most one ``opened``, then
/// ``message(_:)``s, then exactly one ``failed(httpStatus:reason:)`` (it never opened) or ``closed(_:)`` (it had
/// opened). The last event comes after lws is torn down, so nothing of the connection runs after it.
enum WebSocketEvent: Sendable, Hashable {
    /// The upgrade succeeded with the `keyscope.v1` subprotocol.
    case opened
    /// One whole message (its fragments joined).
    case message([UInt8])
    /// The connection never opened: lws's reason, and the HTTP status of a refused upgrade when there was one.
    case failed(httpStatus: Int?, reason: String)
    /// The open connection ended.
    case closed(WebSocketClosure)
}

/// How an open connection ended.
struct WebSocketClosure: Sendable, Hashable {
    /// Who or what ended it.
    enum Cause: Sendable, Hashable {
        /// This side asked (``WebSocketConnection/close(code:reason:)``).
        case client
        /// The server sent a close frame.
        case server
        /// The server sent a message over the limit; this side closed with 1009.
        case tooLarge
        /// The connection was lost without a close frame (reset, end of stream, a timeout, a write error).
        case dropped
    }

    var cause: Cause
    /// The close code the server sent, for ``Cause/server`` (nil when its close frame had none).
    var code: Int?
    /// The close frame's reason text, when there was one.
    var reason: String
}
