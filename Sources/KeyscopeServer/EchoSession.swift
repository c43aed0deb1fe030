import CLibWebSockets

/// One connection of the conformance echo (``ServerOptions/conformanceEcho``): the message it is receiving and the
/// echoes waiting to go out, oldest first. Touched only by the service thread.
final class EchoSession {
    let wsi: OpaquePointer
    /// The fragments of the message being received (see ``MessageAssembly``).
    var inbox: [UInt8] = []
    /// Whether the message being received came in binary frames: its echo goes out the same way.
    var inboxIsBinary = false
    /// Set when a message went over the size limit: once the echoes before it are out, the connection closes
    /// with 1009.
    var overLimit = false
    /// Set on shutdown: the next writable callback closes with 1001.
    var closing = false
    /// Whether lws was told to stop reading the socket until the echoes are out.
    var readingPaused = false

    /// An echo after `kws_pre()` bytes of headroom, and whether it goes out as binary.
    private struct Echo {
        var bytes: [UInt8]
        let binary: Bool
    }

    private var outbox: [Echo] = []
    private var outboxHead = 0

    init(wsi: OpaquePointer) { self.wsi = wsi }

    var hasQueuedEchoes: Bool { outboxHead < outbox.count }

    /// Queues a received message to be sent back in one frame of the same type.
    func enqueue(_ message: [UInt8], binary: Bool) {
        let headroom = kws_pre()
        var bytes = [UInt8](repeating: 0, count: headroom)
        bytes.reserveCapacity(headroom + message.count)
        bytes += message
        outbox.append(Echo(bytes: bytes, binary: binary))
    }

    /// Sends the oldest echo as one message; whatever the socket does not take now, lws sends before the next
    /// writable callback. Returns false when the connection failed.
    func writeNext() -> Bool {
        guard outboxHead < outbox.count else { return true }
        let headroom = kws_pre()
        let binary = outbox[outboxHead].binary
        let length = outbox[outboxHead].bytes.count - headroom
        let written = outbox[outboxHead].bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return lws_write(wsi, base + headroom, length, binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT)
        }
        outbox[outboxHead].bytes = []
        outboxHead += 1
        if outboxHead == outbox.count {
            outbox.removeAll(keepingCapacity: true)
            outboxHead = 0
        }
        return Int(written) >= length
    }
}
