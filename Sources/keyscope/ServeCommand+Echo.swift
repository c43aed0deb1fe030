import ArgumentParser
import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
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
        // No server record and no files: an echo has neither (InspectorServer skips the record in this mode).
        var options = baseServerOptions()
        options.conformanceEcho = true
        // The server refuses other hosts too; this says it in the flag's words.
        guard options.isLoopback else {
            throw ValidationError("--echo listens on loopback only (127.0.0.1, ::1 or localhost), not on \(host).")
        }

        let stop = StopRequest()
        let watcher = SignalWatcher([SIGINT, SIGTERM]) { _ in stop.request() }
        let server = InspectorServer(hub: InspectorHub(registry: StoreRegistry()), options: options)
        do {
            try server.start()
        } catch {
            throw ServeFailure.starting(error, host: host, port: port)
        }
        let address = ServerRecord.baseURL(host: host, port: server.port ?? port)
        Console.line("Keyscope echo: ws" + address.dropFirst("http".count) + "/")

        await stop.waitUntilRequested()
        watcher.stop()
        server.stop()
    }
}
