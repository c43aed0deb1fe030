import CLibWebSockets

/// A client lws context: no listener, one protocol, and the connections it makes to a WebSocket server. Its events
/// go to one ``LwsCallbackHandler``. Made, serviced and destroyed on one thread, which is then the only one that
/// calls lws for it (other threads only wake it, through ``handle``).
///
/// ```swift
/// guard let context = LwsClientContext(settings, handler: self) else { … }
/// let connection = context.connect(to: endpoint)        // events follow: .clientEstablished, .clientReceive…
/// while running { guard context.service() else { break } }
/// context.destroy()                                     // the teardown's events reach nobody
/// ```
package final class LwsClientContext {
    /// What the context and its connection need to know.
    package struct Settings: Sendable {
        /// The WebSocket subprotocol the connection asks for.
        package var protocolName: String
        /// lws's receive buffer: messages arrive in pieces of at most this size.
        package var rxBufferSize: Int
        /// The largest frame lws writes at once.
        package var txPacketSize: Int
        /// How long connecting (and lws's other network round trips) may take, in seconds.
        package var timeoutSeconds: Int

        package init(protocolName: String, rxBufferSize: Int, txPacketSize: Int, timeoutSeconds: Int) {
            self.protocolName = protocolName
            self.rxBufferSize = rxBufferSize
            self.txPacketSize = txPacketSize
            self.timeoutSeconds = timeoutSeconds
        }
    }

    /// Where a connection goes: the address and port to connect to, and the request's path and headers.
    package struct Endpoint: Sendable {
        package var address: String
        package var port: Int
        package var path: String
        package var host: String
        package var origin: String

        package init(address: String, port: Int, path: String, host: String, origin: String) {
            self.address = address
            self.port = port
            self.path = path
            self.host = host
            self.origin = origin
        }
    }

    private let memory: LwsContextMemory
    private let target: LwsCallbackTarget
    private var context: OpaquePointer?
    /// What other threads use to wake the thread that services this context.
    package let handle: LwsContextHandle

    /// `nil` when lws could not make the context.
    package init?(_ settings: Settings, handler: any LwsCallbackHandler) {
        memory = LwsContextMemory(
            protocolName: settings.protocolName, rxBufferSize: settings.rxBufferSize,
            txPacketSize: settings.txPacketSize)
        target = LwsCallbackTarget(handler)
        var info = lws_context_creation_info()
        info.port = CONTEXT_PORT_NO_LISTEN
        info.protocols = UnsafePointer(memory.protocols)
        info.gid = -1
        info.uid = -1
        // Without it lws 4.1 sends "Origin: http://" + the origin given; the server wants exactly http://HOST:PORT.
        info.options = UInt64(LWS_SERVER_OPTION_JUST_USE_RAW_ORIGIN)
        info.user = target.userPointer
        info.timeout_secs = UInt32(clamping: settings.timeoutSeconds)
        info.connect_timeout_secs = UInt32(clamping: settings.timeoutSeconds)
        guard let context = lws_create_context(&info) else {
            target.handler = nil
            return nil
        }
        self.context = context
        handle = LwsContextHandle(context)
    }

    /// Starts a connection (plain TCP, no TLS); `nil` when lws could not start it (its events may have said why).
    package func connect(to endpoint: Endpoint) -> LwsConnection? {
        guard let context else { return nil }
        var info = lws_client_connect_info()
        info.context = context
        info.protocol = UnsafePointer(memory.protocolName)
        info.address = UnsafePointer(memory.keep(endpoint.address))
        info.port = Int32(endpoint.port)
        info.path = UnsafePointer(memory.keep(endpoint.path))
        info.host = UnsafePointer(memory.keep(endpoint.host))
        info.origin = UnsafePointer(memory.keep(endpoint.origin))
        info.ssl_connection = 0
        return lws_client_connect_via_info(&info).map(LwsConnection.init)
    }

    /// One turn of lws's service loop (events are handled inside); false when lws failed.
    package func service() -> Bool {
        guard let context else { return false }
        return lws_service(context, 0) >= 0
    }

    /// Destroys the context and its connection. The handler hears nothing of the teardown. Idempotent.
    package func destroy() {
        guard let context else { return }
        target.handler = nil
        self.context = nil
        lws_context_destroy(context)
    }

    deinit { destroy() }
}
