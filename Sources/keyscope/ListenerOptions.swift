import ArgumentParser
import Foundation
import KeyscopeServer

/// How a serving command (`serve`, `fleet`) listens, whom it lets in, and its limits (docs/protocol.md "Limits",
/// docs/hardening.md).
struct ListenerOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "TCP port (default 8081 for serve, 8090 for fleet); 0 picks a free one.", valueName: "N"))
    var port: Int?

    @Option(name: .long, help: ArgumentHelp("Address to listen on.", valueName: "ADDR"))
    var host: String = "127.0.0.1"

    @Option(
        name: .long,
        help: ArgumentHelp("Access token (default: $KEYSCOPE_TOKEN, else random for this start).", valueName: "T"))
    var token: String?

    @Flag(name: .long, help: "Refuse every write with read_only; reads still work.")
    var readOnly = false

    @Option(
        name: .customLong("public"),
        help: ArgumentHelp("Directory of the dashboard's files (default: the package's Public/).", valueName: "DIR"))
    var publicDirectory: String?

    @Option(name: .long, help: ArgumentHelp("Largest WebSocket message (close 1009 beyond).", valueName: "SIZE"))
    var maxMessage = ByteSize(bytes: 4 << 20)

    @Option(name: .long, help: ArgumentHelp("Largest HTTP request body (413 beyond).", valueName: "SIZE"))
    var maxBody = ByteSize(bytes: 4 << 20)

    @Option(name: .long, help: ArgumentHelp("Largest request line and headers (431 beyond).", valueName: "SIZE"))
    var maxHeader = ByteSize(bytes: 16 << 10)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds a client has to send its request headers (and the longest pause allowed within a body).",
            valueName: "SECONDS"))
    var headerTimeout: Int = 10

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Most connections open at once; past it, those that have not sent their request make room (503).",
            valueName: "N"))
    var maxConnections: Int = ServerOptions().maxConnections

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds a WebSocket client that stopped reading keeps its connection before it is dropped.",
            valueName: "SECONDS"))
    var stalledClientTimeout: Int = 30

    @Option(name: .long, help: ArgumentHelp("Also accept this name in Host (repeatable).", valueName: "NAME"))
    var allowHost: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Also accept this exact Origin, like http://localhost:5173 (repeatable).", valueName: "ORIGIN"))
    var allowOrigin: [String] = []

    /// `serve`'s port when `--port` is not given.
    static let servePort = 8081
    /// `fleet`'s port when `--port` is not given: beside instances on the same machine.
    static let fleetPort = 8090

    func validate() throws {
        try TokenOption.validate(port: port, token: token)
        guard headerTimeout >= 1 else { throw ValidationError("--header-timeout must be at least 1 second.") }
        guard maxConnections >= 2 else {
            throw ValidationError("--max-connections must be at least 2; got \(maxConnections).")
        }
        guard stalledClientTimeout >= 1 else {
            throw ValidationError("--stalled-client-timeout must be at least 1 second.")
        }
    }

    /// The server's options from the flags (the token from `--token` or `$KEYSCOPE_TOKEN`).
    func serverOptions(defaultPort: Int) -> ServerOptions {
        var options = ServerOptions()
        options.host = host
        options.port = port ?? defaultPort
        options.token = TokenOption.given(token)
        options.readOnly = readOnly
        options.publicDirectory = publicDirectory.map { URL(fileURLWithPath: $0) } ?? PublicDirectory.default
        options.maxMessageBytes = maxMessage.bytes
        options.maxBodyBytes = maxBody.bytes
        options.maxHeaderBytes = maxHeader.bytes
        options.headerTimeout = .seconds(headerTimeout)
        options.maxConnections = maxConnections
        options.stalledClientTimeout = .seconds(stalledClientTimeout)
        options.allowedHosts = allowHost
        options.allowedOrigins = allowOrigin
        return options
    }
}
