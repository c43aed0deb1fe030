import ArgumentParser
import KeyscopeInspector
import KeyscopeProtocol
import KeyscopeServer

/// How a serving command (`serve`, `replay --serve`) reports a server that did not start: a bad option is a usage
/// error (exit status 64, with the usage line); a port it cannot listen on is a runtime failure (exit status 1),
/// with who holds the port when it is a keyscope server, and the option that gets around it.
///
/// ```swift
/// do { try server.start() } catch { throw ServeFailure.starting(error, host: host, port: port) }
/// // Error: could not listen on 127.0.0.1:8081: keyscope demo (pid 4121) is serving there; pass --port 0 …
/// ```
enum ServeFailure {
    /// The error to throw for `error`, thrown by `InspectorServer.start()` for `host:port`.
    static func starting(_ error: any Error, host: String, port: Int) -> any Error {
        switch error as? ServerError {
        case .invalidOption(let message)?:
            return ValidationError(message)
        case .listenFailed?:
            return CommandFailure(
                listenFailure(host: host, port: port, holder: ServerRecord.live().first { $0.port == port }))
        default:
            return CommandFailure("could not start the server: \(error)")
        }
    }

    /// The message for a port that could not be listened on; `holder` is the keyscope server found there. With
    /// port 0 (any free port) only the address can be at fault.
    static func listenFailure(host: String, port: Int, holder: ServerRecord?) -> String {
        guard port != 0 else {
            return "could not listen on \(host): it is not an address of this machine; leave --host out for "
                + "127.0.0.1, or name one this machine has"
        }
        let why =
            holder.map { "\($0.name) (pid \($0.pid)) is serving there" }
            ?? "the port is taken, or the address is not one of this machine's"
        return "could not listen on \(host):\(port): \(why); pass --port 0 to listen on a free port (the dashboard "
            + "line names it), or --port N for another"
    }
}
