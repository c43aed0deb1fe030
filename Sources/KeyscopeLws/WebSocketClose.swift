import CLibWebSockets

/// Closing a WebSocket connection from lws's writable callback: the close frame's code and reason are set, and the
/// callback returns -1 so that lws sends it and completes the closing handshake. Never from a receive callback:
/// returning -1 there can crash lws 4.1 when more frames of the same read are buffered.
///
/// ```swift
/// case .serverWriteable where session.incoming.overLimit:
///     return WebSocketClose.messageTooLarge(connection, limit: maxMessageBytes)   // 1009
/// ```
package enum WebSocketClose {
    /// Closes with `code` and `reason` (cut to the 123 bytes a close frame has room for). Returns -1, what the
    /// callback must return.
    package static func close(_ connection: LwsConnection, code: Int, reason: String) -> Int32 {
        var text = Array(reason.utf8.prefix(123))
        text.withUnsafeMutableBufferPointer { buffer in
            lws_close_reason(connection.wsi, lws_close_status(UInt32(code)), buffer.baseAddress, buffer.count)
        }
        return -1
    }

    /// 1009: a message was over `limit` bytes (see ``MessageAssembly``).
    package static func messageTooLarge(_ connection: LwsConnection, limit: Int) -> Int32 {
        close(connection, code: Int(LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE.rawValue), reason: "message over \(limit) bytes")
    }

    /// 1001: the server is stopping.
    package static func goingAway(_ connection: LwsConnection) -> Int32 {
        close(connection, code: Int(LWS_CLOSE_STATUS_GOINGAWAY.rawValue), reason: "server shutting down")
    }
}
