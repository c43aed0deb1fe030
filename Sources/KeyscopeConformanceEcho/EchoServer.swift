import Dispatch
import KeyscopeLws
import Logging
import Synchronization

/// The conformance echo: a WebSocket server on the inspector's lws layer (``KeyscopeLws``) that sends every message
/// back whole, in the frame type it came in. What the Autobahn suite checks on it is the inspector's own: the same
/// context setup and service thread, security headers, Host and Origin rules, extension-offer refusal, message
/// reassembly and limit (``KeyscopeLws/MessageAssembly``, close 1009), and closes.
///
/// ```swift
/// let echo = EchoServer(options: EchoOptions())
/// let port = try echo.start()          // listening when it returns
/// echo.stop()                          // every client gets close 1001; the port is free when it returns
/// ```
final class EchoServer: Sendable {
    let options: EchoOptions
    private let logger: Logger
    private let running = Mutex<(core: EchoCore, done: DispatchSemaphore)?>(nil)

    init(options: EchoOptions, logger: Logger = Logger(label: "keyscope.echo")) {
        self.options = options
        self.logger = logger
    }

    /// Starts listening; returns the port once the socket is bound.
    func start() throws(EchoError) -> Int {
        if let problem = options.problem { throw EchoError(problem) }
        return try running.withLock { (running) throws(EchoError) -> Int in
            guard running == nil else { throw EchoError("the echo is already running") }
            let core = EchoCore(options: options)
            var settings = LwsServiceThread.Settings(
                host: options.host, port: options.port, protocolName: "",
                maxHeaderBytes: options.maxHeaderBytes, headerTimeoutSeconds: options.headerTimeoutSeconds)
            // The protocol is renamed to each client's first offer (``EchoCore/adoptSubprotocol(_:)``); lws refuses
            // names over 62 bytes anyway.
            settings.protocolNameCapacity = 64
            // Text that is not UTF-8 closes the connection with 1007 as soon as lws sees the bad byte. The inspector
            // leaves that to its JSON parser instead (a bad request never closes its connection).
            settings.validatesUTF8 = true
            let thread = LwsServiceThread(name: "keyscope-echo", settings: settings, logger: logger, service: core)
            let done = thread.launch()
            guard let port = thread.waitUntilListening() else {
                done.wait()
                throw EchoError(
                    "could not listen on \(options.host) port \(options.port): another server may have it; pass "
                        + "--port 0 for a free one")
            }
            running = (core, done)
            return port
        }
    }

    /// Closes every client with 1001 (going away), stops listening and waits for the service thread. Clients that
    /// do not finish closing within two seconds are dropped.
    func stop() {
        let taken = running.withLock { running in
            let taken = running
            running = nil
            return taken
        }
        guard let (core, done) = taken else { return }
        core.requestStop()
        if done.wait(timeout: .now() + 2) == .timedOut {
            core.forceFinish()
            done.wait()
        }
    }

    deinit { stop() }
}

/// Why the echo cannot start.
struct EchoError: Error, Hashable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
