import Foundation
import KeyscopeLws
import KeyscopeProtocol
import Synchronization

/// One WebSocket client connection through libwebsockets: its own lws context, serviced by its own thread, which
/// is the only thread that calls lws (apart from `lws_cancel_service`).
///
/// ```swift
/// let connection = WebSocketConnection(settings)
/// connection.start { event in print(event) }      // events arrive on the service thread
/// connection.send(Array(#"{"id":1,"type":"resync"}"#.utf8))
/// connection.close()
/// ```
/// Other threads only put work into ``shared`` under its lock and call `lws_cancel_service`, which makes the service
/// thread handle `.eventWaitCancelled`; there it asks for a `.clientWriteable` event and writes
/// (the rule CONTRIBUTING.md gives for every lws context, from lws's example `minimal-ws-server-threads`).
///
/// `@unchecked Sendable`: the stored properties without a lock (the lws handle, the message being received, the message being
/// written, the outcome) are read and written only on the service thread, from ``run()`` and the lws callback it
/// drives; everything another thread touches is inside ``shared``.
final class WebSocketConnection: @unchecked Sendable {
    /// What the connection needs to know.
    struct Settings: Sendable {
        var endpoint: InspectorEndpoint
        var subprotocol = InspectorProtocol.subprotocol
        /// The largest incoming message, in bytes.
        var maxMessageBytes: Int
        /// lws's receive buffer: messages arrive in chunks of at most this size.
        var receiveBufferBytes = 64 << 10
        /// Outgoing messages are sent as frames of at most this size.
        var fragmentBytes = 64 << 10
        /// How long connecting (and lws's other network round trips) may take, in seconds.
        var timeoutSeconds: Int
    }

    /// The state other threads share with the service thread.
    struct Shared {
        /// The lws context, while `lws_cancel_service` may be called on it (the service thread takes it away, under
        /// the lock, before `lws_context_destroy`).
        var context: LwsContextHandle?
        /// Messages waiting for the service thread, oldest first.
        var outgoing: [[UInt8]] = []
        /// The close this side asked for (sent once everything queued before it was written).
        var closeRequest: (code: Int, reason: String)?
        /// Set once the service thread stopped: nothing more is accepted.
        var finished = false
    }

    let settings: Settings
    let shared = Mutex(Shared())

    // Service thread only (`onEvent` is set before the thread starts); the callbacks in
    // WebSocketConnection+Callbacks.swift use them too.
    var onEvent: @Sendable (WebSocketEvent) -> Void = { _ in }
    /// The connection's handle while it is usable.
    var wsi: LwsConnection?
    /// The connection's handle as lws returned it, kept to recognise its `.wsiDestroy`.
    var clientWSI: LwsConnection?
    var established = false
    /// The message being received; once one went over the limit (`overLimit`), the rest is dropped until the close
    /// with 1009 is out.
    var incoming: MessageAssembly
    var writing: FragmentedMessage?
    var closingCause: WebSocketClosure.Cause?
    var peerClose: (code: Int?, reason: String)?
    /// How the connection ended, once it did: the service loop stops and reports it.
    var outcome: WebSocketEvent?

    init(_ settings: Settings) {
        self.settings = settings
        self.incoming = MessageAssembly(limit: settings.maxMessageBytes)
    }

    /// Starts the service thread, which connects and reports to `onEvent`. The thread keeps this object alive until
    /// it ends. Call it once.
    func start(onEvent: @escaping @Sendable (WebSocketEvent) -> Void) {
        self.onEvent = onEvent
        let thread = Thread { self.run() }
        thread.name = "keyscope-client-lws"
        thread.start()
    }

    /// Queues one text message; false when the connection already ended.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        shared.withLock { shared in
            guard !shared.finished, shared.closeRequest == nil else { return false }
            shared.outgoing.append(bytes)
            shared.context?.wake()
            return true
        }
    }

    /// Asks for a close with `code` once the messages queued so far are written (at once when still connecting).
    func close(code: Int = 1000, reason: String = "") {
        shared.withLock { shared in
            guard !shared.finished, shared.closeRequest == nil else { return }
            shared.closeRequest = (code, reason)
            shared.context?.wake()
        }
    }

    // MARK: The service thread

    /// The service thread's whole life: create the context, connect, service until the connection ends, tear
    /// down, then report how it ended.
    private func run() {
        let created = LwsClientContext(
            LwsClientContext.Settings(
                protocolName: settings.subprotocol, rxBufferSize: settings.receiveBufferBytes,
                txPacketSize: settings.fragmentBytes, timeoutSeconds: settings.timeoutSeconds),
            handler: self)
        defer { onEvent(outcome ?? .failed(httpStatus: nil, reason: "the connection ended for an unknown reason")) }
        guard let context = created else {
            outcome = .failed(httpStatus: nil, reason: "libwebsockets could not create a client context")
            shared.withLock { $0.finished = true }
            return
        }
        shared.withLock { $0.context = context.handle }

        let endpoint = settings.endpoint
        let started = context.connect(
            to: LwsClientContext.Endpoint(
                address: endpoint.address, port: endpoint.port, path: endpoint.webSocketPath,
                host: endpoint.hostHeader, origin: endpoint.origin))
        if started == nil && outcome == nil {
            outcome = .failed(httpStatus: nil, reason: "libwebsockets could not start the connection")
        }
        if outcome == nil {
            wsi = started
            clientWSI = started
            wake()  // a close asked for before the context existed could not wake the service thread
        }

        while outcome == nil {
            if !context.service(), outcome == nil {
                outcome =
                    established ? .closed(closure(.dropped)) : .failed(httpStatus: nil, reason: "lws_service failed")
            }
        }

        shared.withLock { shared in
            shared.context = nil
            shared.finished = true
            shared.outgoing = []
        }
        // Callbacks during the teardown find no handler and do nothing.
        context.destroy()
    }
}
