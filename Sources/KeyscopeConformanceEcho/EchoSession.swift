import KeyscopeLws

/// One connection of the conformance echo: the message it is receiving and the echoes waiting to go out, oldest
/// first. Touched only by the service thread.
final class EchoSession {
    let wsi: LwsConnection
    /// The message being received (see ``MessageAssembly``): once one went over the limit, the echoes before it go
    /// out and the connection closes with 1009.
    var incoming: MessageAssembly
    /// Set on shutdown: the next writable callback closes with 1001.
    var closing = false
    /// Paused until the echoes are out.
    var reading = ReadFlow()
    private var outbox = Outbox<OutgoingMessage>()

    init(wsi: LwsConnection, maxMessageBytes: Int) {
        self.wsi = wsi
        self.incoming = MessageAssembly(limit: maxMessageBytes)
    }

    var hasQueuedEchoes: Bool { !outbox.isEmpty }

    /// Queues a received message to be sent back in one frame of the same type.
    func enqueue(_ message: [UInt8], binary: Bool) {
        outbox.append(OutgoingMessage(payload: message, binary: binary))
    }

    /// Sends the oldest echo as one message; whatever the socket does not take now, lws sends before the next
    /// writable callback. Returns false when the connection failed.
    func writeNext() -> Bool {
        guard var echo = outbox.popFirst() else { return true }
        return echo.write(to: wsi)
    }
}
