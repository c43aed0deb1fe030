import KeyscopeCore
import KeyscopeInspector
import KeyscopeLws
import Synchronization

/// One WebSocket client: its cursor in the hub's log, the messages waiting for it, and the message it is receiving.
/// Touched only by the service thread.
final class WebSocketSession {
    let wsi: LwsConnection
    let cursor: HubCursor
    /// Messages to send before the next log entries (hello, snapshot, replies, gap…).
    private var outbox = Outbox<[UInt8]>()
    /// The message being received (binary ones are refused: requests are text). Once one went over the size limit,
    /// the next writable callback closes with 1009.
    var incoming: MessageAssembly
    /// Set on shutdown: the next writable callback closes with 1001.
    var closing = false
    /// The buffer of the last message sent, emptied, for the next `changes` frame (see ``recycle(_:)``).
    private var spareFrame: [UInt8] = []
    /// When this client may next be sent a changed subscription list while entries wait (the first goes at once).
    private var listDueAt = ContinuousClock.now

    /// How often a client that is behind the log gets a changed subscription list; one that has caught up gets it
    /// at once. Under load the list changes between any two frames, and sending it first every time starved the
    /// entries (issue 8's soak: 135 lists and 2 `changes` frames in 10 s per client at 10,000 changes/s).
    static let listIntervalWhileBehind = Duration.milliseconds(250)

    /// The feature that serves this client instead of the hub (``FeatureStream``), if any.
    let stream: (any FeatureStream)?
    /// Unique among the server's sessions for its life (a `wsi` pointer may be reused once a connection closes):
    /// answers that arrive later from other threads find their session by it.
    let serial: UInt64

    private static let serials = Atomic<UInt64>(0)

    init(wsi: LwsConnection, cursor: HubCursor, maxMessageBytes: Int, stream: (any FeatureStream)? = nil) {
        self.wsi = wsi
        self.cursor = cursor
        self.incoming = MessageAssembly(limit: maxMessageBytes)
        self.stream = stream
        self.serial = Self.serials.add(1, ordering: .relaxed).newValue
    }

    /// Bytes waiting in the outbox. A client that sends requests and never reads the replies would grow it without
    /// bound (issue 8: a `resync` every 10 ms grew the server by 24 MiB in 6 s); past ``ServerCore/maxQueuedBytes``
    /// the server stops reading from it until the outbox drains (``reading``), so the client's sends block.
    private(set) var queuedBytes = 0
    /// Paused while the outbox is full, and after ``ServerCore/requestsPerTurn`` requests until the next writable
    /// callback.
    var reading = ReadFlow()
    /// Requests received since the last writable callback.
    var requestsThisTurn = 0
    /// Its requests on the worker; while there are any, its stream of log entries waits.
    var requests = InFlightRequests()
    /// Set when its cursor's next read is a gap and a snapshot, which the worker makes
    /// (``ServerCore/submitCatchUp(for:)``).
    var needsCatchUp = false
    /// When the connection's deadline to take what waits for it was last set; `nil` while it has none
    /// (``ServerCore/armStall(_:pushing:)``).
    var stallArmedAt: ContinuousClock.Instant?

    /// Messages waiting in the outbox.
    private(set) var queuedCount = 0

    func enqueue(_ message: [UInt8]) {
        outbox.append(message)
        queuedBytes += message.count
        queuedCount += 1
    }

    var hasQueuedMessages: Bool { !outbox.isEmpty }

    /// The next message to send: queued ones first, then (unless the stream waits for requests on the worker) the
    /// subscription list when it changed (while entries wait, at most every ``listIntervalWhileBehind``), then the
    /// next batch of log entries. `nil` when there is nothing to send, or when the next read is a gap and a snapshot
    /// (then ``needsCatchUp`` is set: the server has the worker make it).
    func nextMessage(maxEntries: Int, maxBytes: Int) -> OutgoingMessage? {
        if let queued = dequeue() { return OutgoingMessage(payload: queued) }
        if let stream {
            return stream.next(maxEntries: maxEntries, maxBytes: maxBytes).map { OutgoingMessage(payload: $0) }
        }
        guard !requests.holdsStream else { return nil }
        let now = ContinuousClock.now
        if !wantsEntries || now >= listDueAt, let list = cursor.subscriptionsUpdate() {
            listDueAt = now + Self.listIntervalWhileBehind
            return OutgoingMessage(payload: HubMessages.subscriptions(list))
        }
        switch cursor.nextEntries(maxEntries: maxEntries, maxBytes: maxBytes) {
        case .entries(let entries)?:
            let headroom = OutgoingMessage.preambleBytes
            var bytes: [UInt8] = []
            swap(&bytes, &spareFrame)
            HubMessages.appendChanges(entries, headroom: headroom, to: &bytes)
            return OutgoingMessage(bytes: bytes, headroom: headroom)
        case .snapshotNeeded?:
            needsCatchUp = true
            return nil
        case nil:
            return nil
        }
    }

    /// Keeps the buffer of a message just sent (`sent`, left empty) for the next `changes` frame, unless it is over
    /// ``keptFrameCapacity`` (a rare large snapshot is not held for the connection's life). lws has taken the bytes
    /// by then: what the socket did not accept, it copied. A busy client's frames are up to 256 KiB, and allocating
    /// each afresh cost the service thread the kernel's page faults on every frame.
    func recycle(_ sent: inout [UInt8]) {
        guard sent.capacity <= Self.keptFrameCapacity else { return }
        // Swapped, not copied: the buffer stays unique, so emptying it keeps it rather than allocating another.
        swap(&spareFrame, &sent)
        spareFrame.removeAll(keepingCapacity: true)
    }

    /// The largest buffer ``recycle(_:)`` keeps: room for a full `changes` frame (``ServerCore/frameBytes``, which
    /// one large entry may pass) and then some.
    static let keptFrameCapacity = 4 * ServerCore.frameBytes

    /// Whether another writable callback is worth asking for: queued messages, log entries past the cursor, or a
    /// subscription list held back while entries were waiting (not while the stream waits for its requests).
    var wantsToWrite: Bool {
        if hasQueuedMessages { return true }
        if let stream { return stream.hasNews }
        return !requests.holdsStream && (wantsEntries || cursor.subscriptionsChanged)
    }

    /// Whether log entries past the cursor are waiting.
    private var wantsEntries: Bool { cursor.nextSeq <= cursor.hub.lastSeq }

    private func dequeue() -> [UInt8]? {
        guard let message = outbox.popFirst() else { return nil }
        queuedBytes -= message.count
        queuedCount -= 1
        return message
    }
}
