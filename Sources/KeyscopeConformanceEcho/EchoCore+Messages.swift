import KeyscopeLws

/// The echo itself: each message is collected (``KeyscopeLws/MessageAssembly``, within the limit) and sent back
/// whole, one at a time. Framing, control frames and the closing handshake are lws's, as for the inspector.
extension EchoCore {
    /// A piece of a message: collected until the last fragment, then queued to go back.
    func receive(_ wsi: LwsConnection, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let session = sessions[wsi] else { return 0 }
        // As for the inspector: after an oversized message, everything is ignored until the close goes out (from
        // the writable callback: returning -1 here can crash lws 4.1 when more frames are buffered).
        guard !session.incoming.overLimit, !session.closing else { return 0 }
        switch session.incoming.receive(wsi, input, length) {
        case .partial:
            return 0
        case .overLimit:
            break
        case .complete(let message, let binary):
            session.enqueue(message, binary: binary)
            // One message at a time: lws reads no further until its echo is out. A client that sends without
            // reading holds one message in memory, not all of them; and an echo is not lost when a later frame in
            // the same read breaks the protocol (lws fails the connection before any writable callback).
            session.reading.setPaused(true, on: wsi)
        }
        wsi.callbackOnWritable()
        return 0
    }

    /// The socket can take more: one echo per call (lws's rule); after the last echo, the 1009 close if a message
    /// was too large.
    func writable(_ wsi: LwsConnection) -> Int32 {
        guard let session = sessions[wsi] else { return 0 }
        if session.closing { return WebSocketClose.goingAway(wsi) }
        if session.hasQueuedEchoes {
            guard session.writeNext() else { return -1 }
            if !session.hasQueuedEchoes { session.reading.setPaused(false, on: wsi) }
            if session.hasQueuedEchoes || session.incoming.overLimit { wsi.callbackOnWritable() }
            return 0
        }
        if session.incoming.overLimit { return WebSocketClose.messageTooLarge(wsi, limit: options.maxMessageBytes) }
        return 0
    }
}
