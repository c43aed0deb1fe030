import KeyscopeCore
import KeyscopeInspector
import KeyscopeLws
import KeyscopeProtocol
import Synchronization

/// WebSocket clients that a feature serves instead of the hub (``FeatureStream``: a fleet dashboard's
/// `/ws?instance=ID`), and the answers their requests get later, from other threads.
extension ServerCore {
    /// The stream a feature serves the upgrade with, kept from the upgrade's checks to its `ESTABLISHED`; a refusal
    /// when a feature refuses the query (an unknown instance: 404 `unknown_instance`). `nil` and `nil`: the hub's own.
    func featureStream(_ request: LwsRequest) -> (stream: (any FeatureStream)?, refusal: Refusal?) {
        let query = Self.query(of: request)
        for feature in hub.features {
            do throws(HubError) {
                if let stream = try feature.stream(for: query) { return (stream, nil) }
            } catch {
                return (nil, Refusal(status: error.code.httpStatus, code: error.code.rawValue, message: error.message))
            }
        }
        return (nil, nil)
    }

    /// A client served by a feature: its hello (with the stream's members), then whatever the stream gives.
    func establish(_ wsi: LwsConnection, stream: any FeatureStream) -> WebSocketSession {
        let (_, cursor) = hub.makeCursor()
        let session = WebSocketSession(
            wsi: wsi, cursor: cursor, maxMessageBytes: options.maxMessageBytes, stream: stream)
        session.enqueue(
            ServerMessages.hello(
                name: options.name, readOnly: options.readOnly, resumed: false, extra: stream.helloMembers))
        return session
    }

    /// A request of a client a feature serves: handed to its stream, whose answer comes back through
    /// ``deliver(_:to:)``.
    func runOnStream(_ message: [UInt8], for session: WebSocketSession, stream: any FeatureStream) {
        let serial = session.serial
        stream.handle(message) { [weak self] messages in self?.deliver(messages, to: serial) }
    }

    /// Queues messages for a session from any thread; the service thread hands them over when it wakes. Dropped if
    /// the session has closed by then.
    func deliver(_ messages: [[UInt8]], to serial: UInt64) {
        deliveries.withLock { $0.append((serial, messages)) }
        waker.cancelServiceWait()
    }

    /// On the service thread: the messages delivered since the last wake-up, into their sessions' queues.
    func takeDeliveries() {
        let delivered = deliveries.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
        guard !delivered.isEmpty else { return }
        var bySerial: [UInt64: WebSocketSession] = [:]
        for session in sessions.values { bySerial[session.serial] = session }
        for (serial, messages) in delivered {
            guard let session = bySerial[serial] else { continue }
            for message in messages { session.enqueue(message) }
        }
    }
}
