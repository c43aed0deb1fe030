import CLibWebSockets
import KeyscopeCore
import KeyscopeInspector

/// One WebSocket client: its cursor in the hub's log, the messages waiting for it, and the message it is receiving.
/// Touched only by the service thread.
final class WebSocketSession {
    let wsi: OpaquePointer
    let cursor: HubCursor
    /// Messages to send before the next log entries (hello, snapshot, replies, gap…), oldest first.
    private var outbox: [[UInt8]] = []
    private var outboxHead = 0
    /// The fragments of the message being received.
    var inbox: [UInt8] = []
    /// Whether the message being received came in binary frames (refused: requests are text).
    var inboxIsBinary = false
    /// Set on shutdown: the next writable callback closes with 1001.
    var closing = false
    /// Set when a message went over the size limit: the next writable callback closes with 1009.
    var overLimit = false
    /// When this client was last sent the subscription list (`nil`: never, so the first goes at once).
    private var listSentAt: ContinuousClock.Instant?

    /// How often a client that is behind the log gets a changed subscription list; one that has caught up gets it
    /// at once. Under load the list changes between any two frames, and sending it first every time starved the
    /// entries (issue 8's soak: 135 lists and 2 `changes` frames in 10 s per client at 10,000 changes/s).
    static let listIntervalWhileBehind = Duration.milliseconds(250)

    init(wsi: OpaquePointer, cursor: HubCursor) {
        self.wsi = wsi
        self.cursor = cursor
    }

    /// Bytes waiting in the outbox. A client that sends requests and never reads the replies would grow it without
    /// bound (issue 8: a `resync` every 10 ms grew the server by 24 MiB in 6 s); past ``ServerCore/maxQueuedBytes``
    /// the server stops reading from it until the outbox drains (``readingPaused``), so the client's sends block.
    private(set) var queuedBytes = 0
    /// Set while the server does not read this client (`lws_rx_flow_control` off) because its outbox is full.
    var readingPaused = false

    func enqueue(_ message: [UInt8]) {
        outbox.append(message)
        queuedBytes += message.count
    }

    var hasQueuedMessages: Bool { outboxHead < outbox.count }

    /// The next message to send: queued ones first, then the subscription list when it changed (while entries wait,
    /// at most every ``listIntervalWhileBehind``), then the next batch of log entries (or a gap and a snapshot).
    /// `nil` when there is nothing to send.
    func nextMessage(maxEntries: Int, maxBytes: Int) -> OutgoingMessage? {
        if let queued = dequeue() { return OutgoingMessage(payload: queued) }
        let now = ContinuousClock.now
        let listDue = !wantsEntries || listSentAt.map { now - $0 >= Self.listIntervalWhileBehind } ?? true
        if listDue, let list = cursor.subscriptionsUpdate() {
            listSentAt = now
            return OutgoingMessage(payload: HubMessages.subscriptions(list))
        }
        switch cursor.next(maxEntries: maxEntries, maxBytes: maxBytes) {
        case .entries(let entries)?:
            let headroom = kws_pre()
            return OutgoingMessage(bytes: HubMessages.changes(entries, headroom: headroom), headroom: headroom)
        case .gap(let from, let to, let snapshot)?:
            enqueue(snapshot.messageBytes())
            return OutgoingMessage(payload: HubMessages.gap(from: from, to: to))
        case .snapshot(let snapshot)?:
            return OutgoingMessage(payload: snapshot.messageBytes())
        case nil:
            return nil
        }
    }

    /// Whether another writable callback is worth asking for: queued messages, log entries past the cursor, or a
    /// subscription list held back while entries were waiting.
    var wantsToWrite: Bool { hasQueuedMessages || wantsEntries || cursor.subscriptionsChanged }

    /// Whether log entries past the cursor are waiting.
    private var wantsEntries: Bool { cursor.nextSeq <= cursor.hub.lastSeq }

    private func dequeue() -> [UInt8]? {
        guard outboxHead < outbox.count else { return nil }
        let message = outbox[outboxHead]
        outboxHead += 1
        queuedBytes -= message.count
        if outboxHead == outbox.count {
            outbox.removeAll(keepingCapacity: true)
            outboxHead = 0
        }
        return message
    }
}

/// A message ready for `lws_write`: the payload after `headroom` bytes that lws may overwrite (`LWS_PRE`).
struct OutgoingMessage {
    var bytes: [UInt8]
    let headroom: Int

    init(bytes: [UInt8], headroom: Int) {
        self.bytes = bytes
        self.headroom = headroom
    }

    /// Copies a payload behind fresh headroom.
    init(payload: [UInt8]) {
        let headroom = kws_pre()
        var bytes = [UInt8](repeating: 0, count: headroom)
        bytes.reserveCapacity(headroom + payload.count)
        bytes += payload
        self.init(bytes: bytes, headroom: headroom)
    }

    /// Sends it as one text message; whatever the socket does not take now, lws sends before the next writable
    /// callback. Returns false when the connection failed.
    mutating func write(to wsi: OpaquePointer) -> Bool {
        let length = bytes.count - headroom
        let headroom = self.headroom
        return bytes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            return lws_write(wsi, base + headroom, length, LWS_WRITE_TEXT) >= length
        }
    }
}
