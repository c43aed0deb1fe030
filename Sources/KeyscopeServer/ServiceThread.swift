import CLibWebSockets
import Foundation
import Logging
import Synchronization

/// The one thread that owns the lws context: creates it, runs `lws_service` until the core is finished, destroys
/// it. Nothing else calls lws (``ServiceWaker`` only calls `lws_cancel_service`).
final class ServiceThread: Sendable {
    let core: ServerCore
    /// The bound port, or nil when the context could not be made; set once, before ``listening`` is signalled.
    private let outcome = Mutex<Int?>(nil)
    private let listening = DispatchSemaphore(value: 0)

    init(core: ServerCore) { self.core = core }

    /// Starts the thread; the semaphore is signalled when it has finished (context destroyed, port closed).
    func launch() -> (Thread, DispatchSemaphore) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.name = "keyscope-lws"
        thread.stackSize = 4 << 20
        thread.start()
        return (thread, done)
    }

    /// Blocks until the context exists; the port, or nil when it failed (the thread has then ended).
    func waitUntilListening() -> Int? {
        listening.wait()
        return outcome.withLock { $0 }
    }

    /// Names the calling OS thread (what top -H, perf and /proc show), which Foundation's `Thread.name` does not do
    /// on Linux. There through /proc/thread-self/comm: the glibc call for it is not visible to Swift; on Apple
    /// platforms `pthread_setname_np` names the calling thread.
    private func nameOSThread(_ name: String) {
        #if os(Linux)
        guard let file = fopen("/proc/thread-self/comm", "w") else { return }
        fputs(name, file)
        fclose(file)
        #elseif canImport(Darwin)
        _ = pthread_setname_np(name)
        #endif
    }

    /// Sets this thread's nice value (``ServerOptions/serviceThreadNice``). On Linux `setpriority` with
    /// `PRIO_PROCESS` and 0 changes the calling thread only (nice values are per thread there). Elsewhere it would
    /// lower the whole process, so the thread keeps its priority.
    private func lowerPriority(to nice: Int) {
        #if os(Linux)
        let nice = Int32(min(max(nice, 0), 19))
        guard nice > 0 else { return }
        if setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) != 0 {
            core.logger.notice("could not lower the service thread's priority (nice \(nice)): errno \(errno)")
        }
        #endif
    }

    private func run() {
        nameOSThread("keyscope-lws")
        lowerPriority(to: core.options.serviceThreadNice)
        LwsLogging.install(core.logger)
        let options = core.options
        let memory = LwsContextMemory(rxBufferSize: 64 << 10, echo: options.conformanceEcho)
        core.echoSubprotocol = memory.echoSubprotocol
        var info = lws_context_creation_info()
        info.port = Int32(options.port)
        info.iface = UnsafePointer(memory.keep(options.host))
        info.protocols = UnsafePointer(memory.protocols)
        info.headers = UnsafePointer(memory.headers)
        info.gid = -1
        info.uid = -1
        info.user = Unmanaged.passUnretained(core).toOpaque()
        info.server_string = UnsafePointer(memory.keep("keyscope"))
        info.max_http_header_data = UInt16(clamping: options.maxHeaderBytes)
        // A connection waiting for its headers holds a header table; lws drops it after timeout_secs_ah_idle.
        info.timeout_secs = UInt32(max(1, options.headerTimeout.components.seconds))
        info.timeout_secs_ah_idle = info.timeout_secs
        info.pt_serv_buf_size = 32 << 10
        info.count_threads = 1
        if !options.host.contains(":") { info.options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6) }
        // The echo closes with 1007 on text that is not UTF-8, as soon as lws sees the bad byte; the inspector
        // leaves that to its JSON parser (a bad request never closes the connection, see docs/protocol.md).
        if options.conformanceEcho { info.options |= UInt64(LWS_SERVER_OPTION_VALIDATE_UTF8) }

        guard let context = lws_create_context(&info) else {
            core.echoSubprotocol = nil
            listening.signal()
            return
        }
        let vhost = lws_get_vhost_by_name(context, "default")
        let port = lws_get_vhost_listen_port(vhost)
        if let vhost { core.adoptCaptureWatch(vhost) }
        core.policy = HostPolicy(
            port: Int(port), extraHosts: options.allowedHosts, extraOrigins: options.allowedOrigins)
        core.waker.context.withLock { $0 = ContextHandle(pointer: context) }
        outcome.withLock { $0 = Int(port) }
        listening.signal()

        while !core.finished && !core.forced {
            _ = lws_service(context, 0)
            core.requestLines.settleNewHolds()
            core.releaseHeldReads()
        }
        core.waker.context.withLock { $0 = nil }
        lws_context_destroy(context)
        core.echoSubprotocol = nil
        withExtendedLifetime(memory) {}
    }
}
