public import Foundation
public import KeyscopeInspector
import KeyscopeLws
import KeyscopeProtocol
public import Logging
import Synchronization

/// The inspector's HTTP and WebSocket server (libwebsockets): the dashboard's files, `/ws`, `/api/health`,
/// `/api/snapshot`, `POST /api/request`, `POST /api/rewind` and every route of the hub's features, with every rule of
/// docs/protocol.md.
///
/// ```swift
/// let hub = InspectorHub(registry: .shared)
/// let server = InspectorServer(hub: hub, options: ServerOptions())
/// try server.start()                       // listening when it returns; starts the hub if needed
/// print(server.dashboardURL)               // http://127.0.0.1:8081/?token=…
/// server.stop()                            // every client gets close 1001; the port is free when it returns
/// ```
/// **Threads.** One service thread owns the lws context and is the only one that calls lws (except
/// `lws_cancel_service`, which the hub's append signal uses to wake it, at most once per burst of changes, and the
/// request worker when a reply is ready). Requests, routes' handlers and snapshots run on the worker's two threads
/// (`RequestWorker`), so a long one holds no other client. The server installs its hook in the hub's
/// ``KeyscopeInspector/InspectorHub/appendSignal`` while it runs and removes it when it stops: one server per hub.
public final class InspectorServer: Sendable {
    public let hub: InspectorHub
    public let options: ServerOptions
    private let logger: Logger

    private struct Running {
        var core: ServerCore
        var done: DispatchSemaphore
        var port: Int
        var record: ServerRecord?
        /// Where ``record`` was written.
        var recordFile: URL?
        var startedHub: Bool
    }

    private enum Phase {
        case idle
        case running(Running)
        case stopped
    }

    private let phase = Mutex(Phase.idle)

    public init(hub: InspectorHub, options: ServerOptions = ServerOptions(), logger: Logger? = nil) {
        self.hub = hub
        self.options = options
        self.logger = logger ?? Logger(label: "keyscope.server")
    }

    /// The port the server listens on (the real one when ``ServerOptions/port`` was 0); `nil` when not running.
    public var port: Int? {
        phase.withLock { phase in
            if case .running(let running) = phase { return running.port }
            return nil
        }
    }

    /// The token clients must present.
    public var token: String? {
        phase.withLock { phase in
            if case .running(let running) = phase { return running.core.token.value }
            return nil
        }
    }

    /// `http://HOST:PORT/?token=TOKEN`, the address to open in a browser; `nil` when not running.
    public var dashboardURL: String? {
        phase.withLock { phase in
            guard case .running(let running) = phase else { return nil }
            return ServerRecord.baseURL(host: options.host, port: running.port) + "/?token=" + running.core.token.value
        }
    }

    /// `http://HOST:PORT/`, the dashboard's address without its token (for logs); `nil` when not running.
    public var dashboardAddress: String? {
        phase.withLock { phase in
            guard case .running(let running) = phase else { return nil }
            return ServerRecord.baseURL(host: options.host, port: running.port) + "/"
        }
    }

    /// The ``KeyscopeInspector/ServerRecord`` file written for this server (mode 0600: it holds the token);
    /// `nil` when none was written or the server is not running.
    public var serverRecordFile: URL? {
        phase.withLock { phase in
            guard case .running(let running) = phase else { return nil }
            return running.recordFile
        }
    }

    /// Starts listening; returns once the socket is bound (or throws why it could not be). Starts the hub when it
    /// is not running yet (and stops it again in ``stop()``).
    public func start() throws(ServerError) {
        let token = try resolvedToken()
        var files: StaticFiles?
        if let directory = options.publicDirectory {
            guard let found = StaticFiles(root: directory) else {
                throw .invalidOption("the public directory \(directory.path) does not exist or is not a directory")
            }
            files = found
        }
        try validateLimits()
        try phase.withLock { (phase: inout Phase) throws(ServerError) in
            guard case .idle = phase else { throw .alreadyStarted }
            let core = ServerCore(hub: hub, options: options, token: token, files: files, logger: logger)
            let startedHub = !hub.isRunning
            let waker = core.waker
            hub.appendSignal.install { waker.cancelServiceWait() }
            let service = LwsServiceThread(
                name: "keyscope-lws", settings: core.serviceSettings, logger: logger, service: core)
            let done = service.launch()
            guard let port = service.waitUntilListening() else {
                done.wait()
                hub.appendSignal.install(nil)
                throw .listenFailed(host: options.host, port: options.port)
            }
            if startedHub { hub.start() }
            var record: ServerRecord?
            var recordFile: URL?
            if options.writesServerRecord {
                let made = ServerRecord(host: options.host, port: port, token: token.value, name: options.name)
                do {
                    recordFile = try made.write()
                    record = made
                } catch {
                    logger.warning("could not write the server record for the CLI: \(error)")
                }
            }
            phase = .running(
                Running(
                    core: core, done: done, port: port, record: record, recordFile: recordFile,
                    startedHub: startedHub))
        }
    }

    /// Closes every WebSocket client with 1001 (going away), stops listening and waits for the service thread.
    /// Idempotent. Clients that do not finish closing within two seconds are dropped.
    public func stop() {
        let running: Running? = phase.withLock { phase in
            guard case .running(let running) = phase else { return nil }
            phase = .stopped
            return running
        }
        guard let running else { return }
        running.record?.remove()
        running.core.requestStop()
        if running.done.wait(timeout: .now() + 2) == .timedOut {
            running.core.forceFinish()
            running.done.wait()
        }
        hub.appendSignal.install(nil)
        if running.startedHub { hub.stop() }
    }

    deinit { stop() }

    private func resolvedToken() throws(ServerError) -> AccessToken {
        guard let given = options.token else { return AccessToken.random() }
        return try AccessToken.validated(given).get()
    }

    private func validateLimits() throws(ServerError) {
        guard (1...65_535).contains(options.port) || options.port == 0 else {
            throw .invalidOption("the port must be 0 (any free port) or 1 to 65535, not \(options.port)")
        }
        guard options.maxHeaderBytes >= 1024, options.maxHeaderBytes <= 60 << 10 else {
            throw .invalidOption("the header limit must be between 1 KiB and 60 KiB")
        }
        guard options.maxBodyBytes >= 1, options.maxMessageBytes >= 1024 else {
            throw .invalidOption("the body limit must be at least 1 byte and the message limit at least 1 KiB")
        }
        guard options.headerTimeout >= .seconds(1) else {
            throw .invalidOption("the header timeout must be at least 1 second")
        }
        guard options.maxConnections >= 2 else {
            throw .invalidOption("the connection limit must be at least 2, not \(options.maxConnections)")
        }
        guard options.stalledClientTimeout >= .seconds(1) else {
            throw .invalidOption("the stalled-client timeout must be at least 1 second")
        }
    }
}
