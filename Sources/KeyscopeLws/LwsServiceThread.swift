import CLibWebSockets
package import Foundation
package import Logging
import Synchronization

/// What an ``LwsServiceThread`` runs: the owner of a listening context's connections, which handles their events
/// (``LwsCallbackHandler``). Every requirement is called on the service thread.
package protocol LwsService: LwsCallbackHandler, Sendable {
    /// The context exists and listens on `port` (the real one when 0 was asked); called before the thread reports
    /// that it listens. `protocolName` is the name lws upgrades to, which the service may rewrite (see
    /// ``LwsServiceThread/Settings/protocolNameCapacity``).
    func contextCreated(
        _ context: LwsContextHandle, vhost: LwsVhost?, port: Int, protocolName: UnsafeMutablePointer<CChar>)
    /// After each turn of `lws_service`.
    func serviced()
    /// The service loop ends once this is true.
    var isFinished: Bool { get }
    /// Called just before `lws_context_destroy`: other threads must no longer wake the context.
    func contextEnding()
}

/// The one thread that owns a listening lws context: creates it, runs `lws_service` until its ``LwsService`` is
/// finished, destroys it. Nothing else calls lws (other threads only call `lws_cancel_service`, through an
/// ``LwsContextHandle``). The inspector's server and the conformance echo both run on one.
///
/// ```swift
/// let thread = LwsServiceThread(name: "keyscope-lws", settings: settings, logger: logger, service: core)
/// let done = thread.launch()
/// guard let port = thread.waitUntilListening() else { done.wait(); throw … }
/// ```
package final class LwsServiceThread: Sendable {
    /// How the context listens and what it takes.
    package struct Settings: Sendable {
        /// The address to listen on (an IPv6 address only if it has a colon).
        package var host: String
        /// The TCP port; 0 picks any free port.
        package var port: Int
        /// The name of the one WebSocket subprotocol lws upgrades to (see ``LwsContextMemory/protocolName``).
        package var protocolName: String
        /// Room for a longer protocol name written later.
        package var protocolNameCapacity = 0
        /// The most bytes of request line and headers lws keeps for a request.
        package var maxHeaderBytes: Int
        /// How long a new connection may take to send its request headers, in seconds.
        package var headerTimeoutSeconds: Int
        /// lws's receive buffer: messages arrive in pieces of at most this size.
        package var rxBufferSize = 64 << 10
        /// lws closes a connection with 1007 as soon as text that is not UTF-8 arrives.
        package var validatesUTF8 = false
        /// The nice value of the thread on Linux (0 keeps its creator's; clamped to 0…19).
        package var nice = 0

        package init(
            host: String, port: Int, protocolName: String, maxHeaderBytes: Int, headerTimeoutSeconds: Int
        ) {
            self.host = host
            self.port = port
            self.protocolName = protocolName
            self.maxHeaderBytes = maxHeaderBytes
            self.headerTimeoutSeconds = headerTimeoutSeconds
        }
    }

    private let name: String
    private let settings: Settings
    private let logger: Logger
    private let service: any LwsService
    /// The bound port, or nil when the context could not be made; set once, before ``listening`` is signalled.
    private let outcome = Mutex<Int?>(nil)
    private let listening = DispatchSemaphore(value: 0)

    /// `name` is the OS thread's name (what top -H and /proc show).
    package init(name: String, settings: Settings, logger: Logger, service: any LwsService) {
        self.name = name
        self.settings = settings
        self.logger = logger
        self.service = service
    }

    /// Starts the thread; the semaphore is signalled when it has finished (context destroyed, port closed).
    package func launch() -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.name = name
        thread.stackSize = 4 << 20
        thread.start()
        return done
    }

    /// Blocks until the context exists; the port, or nil when it failed (the thread has then ended).
    package func waitUntilListening() -> Int? {
        listening.wait()
        return outcome.withLock { $0 }
    }

    private func run() {
        ThreadSettings.nameOSThread(name)
        ThreadSettings.lowerPriority(to: settings.nice, logger: logger)
        LwsLogging.route(to: logger)
        let memory = LwsContextMemory(
            protocolName: settings.protocolName, nameCapacity: settings.protocolNameCapacity,
            rxBufferSize: settings.rxBufferSize, headers: LwsResponse.securityHeaders)
        // Every event goes to the service, the teardown's too; the target lives until the context is destroyed.
        let target = LwsCallbackTarget(service)
        var info = lws_context_creation_info()
        info.port = Int32(settings.port)
        info.iface = UnsafePointer(memory.keep(settings.host))
        info.protocols = UnsafePointer(memory.protocols)
        info.headers = UnsafePointer(memory.headers)
        info.gid = -1
        info.uid = -1
        info.user = target.userPointer
        info.server_string = UnsafePointer(memory.keep("keyscope"))
        info.max_http_header_data = UInt16(clamping: settings.maxHeaderBytes)
        // A connection waiting for its headers holds a header table; lws drops it after timeout_secs_ah_idle.
        info.timeout_secs = UInt32(max(1, settings.headerTimeoutSeconds))
        info.timeout_secs_ah_idle = info.timeout_secs
        info.pt_serv_buf_size = 32 << 10
        info.count_threads = 1
        if !settings.host.contains(":") { info.options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6) }
        if settings.validatesUTF8 { info.options |= UInt64(LWS_SERVER_OPTION_VALIDATE_UTF8) }
        // Without it lws keeps a vhost whose address is not this machine's waiting for it to appear, listening
        // nowhere, and the server would report a port it does not serve.
        info.options |= UInt64(LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND)

        guard let context = lws_create_context(&info) else {
            listening.signal()
            return
        }
        let vhost = lws_get_vhost_by_name(context, "default")
        let port = Int(lws_get_vhost_listen_port(vhost))
        service.contextCreated(
            LwsContextHandle(context), vhost: vhost.map(LwsVhost.init), port: port, protocolName: memory.protocolName)
        outcome.withLock { $0 = port }
        listening.signal()

        while !service.isFinished {
            _ = lws_service(context, 0)
            service.serviced()
        }
        service.contextEnding()
        lws_context_destroy(context)
        withExtendedLifetime((memory, target)) {}
    }
}
