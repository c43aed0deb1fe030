import ArgumentParser
import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `keyscope serve --echo`: the conformance mode (``ServerOptions/conformanceEcho``).
extension ServeCommand {
    /// Serves the echo on an empty hub until SIGINT or SIGTERM; the demo's options play no part.
    func runEcho() async throws {
        var options = ServerOptions()
        options.host = host
        options.port = port
        options.conformanceEcho = true
        options.writesServerRecord = false
        options.publicDirectory = nil
        options.maxMessageBytes = maxMessage.bytes
        options.maxHeaderBytes = maxHeader.bytes
        options.headerTimeout = .seconds(headerTimeout)
        options.allowedHosts = allowHost
        options.allowedOrigins = allowOrigin
        guard options.isLoopback else {
            throw ValidationError("--echo listens on loopback only (127.0.0.1, ::1 or localhost), not on \(host).")
        }

        let stop = StopRequest()
        let watcher = SignalWatcher([SIGINT, SIGTERM]) { _ in stop.request() }
        let server = InspectorServer(hub: InspectorHub(registry: StoreRegistry()), options: options)
        do {
            try server.start()
        } catch {
            throw ValidationError("\(error)")
        }
        let address = ServerRecord.baseURL(host: host, port: server.port ?? port)
        Console.line("Keyscope echo: ws" + address.dropFirst("http".count) + "/")

        let waiter = Task {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        }
        stop.attach(waiter)
        await waiter.value
        watcher.stop()
        server.stop()
    }
}
