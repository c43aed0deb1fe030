import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `KeyscopeConformanceEcho`: the WebSocket echo the Autobahn suite runs against (`make conformance`). A test tool
/// of this repository, built with it but not a product: the shipped server has no echo mode.
///
/// ```
/// $ .build/debug/KeyscopeConformanceEcho --port 0 --max-message 20971520
/// Keyscope echo: ws://127.0.0.1:40547/
/// ```
@main
struct EchoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "KeyscopeConformanceEcho",
        abstract: "A WebSocket echo on the inspector's server code, for the Autobahn conformance suite.",
        discussion: """
            Answers every WebSocket upgrade (any path, any or no subprotocol, no token) with an echo of each \
            message: whole, as text or binary like it came, through the inspector's libwebsockets layer (the same \
            context setup, message reassembly, --max-message limit with close 1009, Host and Origin rules and \
            extension-offer refusal). Text is checked for UTF-8 as it arrives (close 1007). Plain HTTP gets 404. \
            Listens on loopback only. On start it prints one line,
              Keyscope echo: ws://127.0.0.1:PORT/
            and on SIGINT or SIGTERM closes every client with 1001 and exits 0. See docs/conformance.md.
            """
    )

    @Option(name: .long, help: ArgumentHelp("TCP port; 0 picks a free one.", valueName: "N"))
    var port = EchoOptions().port

    @Option(name: .long, help: ArgumentHelp("Address to listen on: 127.0.0.1, ::1 or localhost.", valueName: "ADDR"))
    var host = EchoOptions().host

    @Option(
        name: .long,
        help: ArgumentHelp("Largest message in bytes (close 1009 beyond); at least 1024.", valueName: "BYTES"))
    var maxMessage = EchoOptions().maxMessageBytes

    var options: EchoOptions {
        var options = EchoOptions()
        options.host = host
        options.port = port
        options.maxMessageBytes = maxMessage
        return options
    }

    func validate() throws {
        if let problem = options.problem { throw ValidationError(problem) }
    }

    func run() throws {
        // Blocked before the service thread exists, so that it inherits the mask and only `sigwait` below sees them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        let echo = EchoServer(options: options)
        let port: Int
        do {
            port = try echo.start()
        } catch {
            FileHandle.standardError.write(Data("Error: \(error.description)\n".utf8))
            throw ExitCode.failure
        }
        FileHandle.standardOutput.write(Data("Keyscope echo: \(options.url(port: port))\n".utf8))

        var received: Int32 = 0
        sigwait(&signals, &received)
        echo.stop()
    }
}
