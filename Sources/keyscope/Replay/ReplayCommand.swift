import ArgumentParser
import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopePreferences
import KeyscopeRecording
import KeyscopeServer
import KeyscopeTunables
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `keyscope replay FILE`: builds real stores from a recording's header and applies every event to them, at the
/// recorded pace or faster, optionally with the inspector serving them.
///
/// ```
/// $ keyscope replay checkout.kslog --speed max
/// checkout.kslog: replayed in 0.012 s (speed max)
/// events    12 (10 changes with 14 patches, 2 store events)
/// …
/// ```
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recording (.kslog) into real stores, optionally with the inspector serving them live.",
        discussion: """
            Makes a store for each store in the recording's header (its id, version and root) and applies every \
            event to it as the recorded process did: each change as one change of its store, with its \
            transaction id (a transaction stays one transaction), registered/reset/removed as registry events. \
            Every line is checked as `keyscope verify` checks it; the first bad one stops the replay with its \
            line number and exit status 1. No storage is touched: every store lives in memory, whatever its id.

            --speed N waits the recorded gaps between events divided by N (default 1: as recorded; 10: ten times \
            as fast; 0.5: half as fast); --speed max does not wait. On a terminal a progress bar on stderr shows \
            the seq, the bytes read and the recorded time. At the end it prints the summary: events, stores, the \
            recorded and the replay's duration, and the state digest (the SHA-256 of `keyscope state FILE`).

            --serve starts the inspector server on the replayed stores before the first event, read-only, and \
            prints one line,
              Keyscope dashboard: http://127.0.0.1:PORT/?token=TOKEN
            so the dashboard (or `keyscope tail`) shows the replay as it happens; after the last event it keeps \
            serving the final state until Ctrl-C. It listens on a free port unless --port N says which (so it \
            runs beside a `keyscope serve` on 8081); the dashboard line names the port, and `keyscope tail \
            --port PORT` follows it. --host, --token and --public are as for `keyscope serve`. Its server \
            refuses every write (read_only): it shows a recording, not a live service.

            Ctrl-C during the replay stops it (exit status 130). A torn tail (a last line without its newline) is \
            dropped with a warning on stderr. FILE may be - for standard input.

            Examples:
              keyscope replay checkout.kslog --speed max
              keyscope replay checkout.kslog --speed 4 --serve
              keyscope replay checkout.kslog --serve --port 8090
            """
    )

    @Argument(help: ArgumentHelp("The recording to replay (- for standard input).", valueName: "FILE"))
    var file: String

    @Option(
        name: .long,
        help: ArgumentHelp("A factor of the recorded speed (1, 2.5, 10x…), or max for no waiting.", valueName: "N|max"))
    var speed = ReplaySpeed(pace: .recorded(speed: 1))

    @Flag(name: .long, help: "Serve the inspector (dashboard, WebSocket, HTTP API) on the replayed stores.")
    var serve = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --serve: TCP port (default: a free one, so it never clashes with a running `serve`).",
            valueName: "N"))
    var port: Int?

    @Option(name: .long, help: ArgumentHelp("With --serve: address to listen on.", valueName: "ADDR"))
    var host: String = "127.0.0.1"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --serve: access token (default: $KEYSCOPE_TOKEN, else random for this start).", valueName: "T"))
    var token: String?

    @Option(
        name: .customLong("public"),
        help: ArgumentHelp(
            "With --serve: directory of the dashboard's files (default: the package's Public/).", valueName: "DIR"))
    var publicDirectory: String?

    @OptionGroup var limits: MaxLineOption

    @Option(name: .long, help: "Level of log messages on stderr.")
    var logLevel: LogLevelOption = .warning

    func validate() throws {
        guard serve || (port == nil && token == nil && publicDirectory == nil && host == "127.0.0.1") else {
            throw ValidationError("--port, --host, --token and --public need --serve.")
        }
        if serve { try TokenOption.validate(port: port, token: token) }
    }

    func run() async throws {
        try await Keyscope.reportingUsageErrors(of: Self.self) { try await replay() }
    }

    private func replay() async throws {
        logLevel.bootstrapLogging()
        let input = RecordingInput(path: file, maxLine: limits.maxLine)
        // A bad header fails before anything starts.
        let reader = try input.open()
        let stop = StopRequest()
        let watcher = SignalWatcher([SIGINT, SIGTERM]) { _ in stop.request() }
        defer { watcher.stop() }
        let registry = StoreRegistry()
        let server = serve ? try startServer(on: registry) : nil
        defer { server?.stop() }

        let clock = ContinuousClock()
        let began = clock.now
        let (pace, total) = (speed.pace, input.fileSize)
        let play = Task { () -> Result<(summary: RecordingSummary, finished: Bool), RecordingError> in
            let progress = ReplayProgress(total: total)
            defer { progress.finish() }
            do throws(RecordingError) {
                let replayer = try StoreReplayer(header: reader.header, registry: registry)
                let summary = try await replayer.play(reader, pace: pace) { entry in
                    progress.update(seq: entry.seq, time: entry.time, bytesRead: reader.bytesRead)
                }
                return .success((summary, reader.isAtEnd))
            } catch {
                return .failure(error)
            }
        }
        stop.attach(play)
        let (summary, finished): (RecordingSummary, Bool)
        switch await play.value {
        case .success(let done): (summary, finished) = done
        case .failure(let error): throw input.failure(error)
        }
        let elapsed = clock.now - began
        if let warning = input.tornTailWarning(summary) { Console.error(warning) }
        Console.line(
            "\(input.name): \(finished ? "replayed" : "interrupted after seq \(summary.events)") in "
                + "\(SummaryText.seconds(elapsed)) (speed \(speed))")
        for line in SummaryText.lines(summary) { Console.line(line) }
        guard finished else { throw ExitCode(130) }
        guard server != nil else { return }
        Console.error("The replay is done; serving its final state until Ctrl-C.")
        await stop.waitUntilRequested()
    }

    /// Starts the inspector, read-only, on `registry` and prints the dashboard line.
    private func startServer(on registry: StoreRegistry) throws -> InspectorServer {
        var options = ServerOptions()
        options.host = host
        options.port = port ?? 0
        options.token = TokenOption.given(token)
        options.readOnly = true
        options.publicDirectory = publicDirectory.map { URL(fileURLWithPath: $0) } ?? PublicDirectory.default
        options.name = "keyscope replay"
        // The features a replay has none of answer that they are missing (`no_tunables`…), as a live server without
        // them does.
        let server = Inspector.makeServer(
            registry: registry, options: options,
            hubOptions: HubOptions(
                readOnly: true, readOnlyReason: "it is `keyscope replay --serve`, which shows a recording"),
            features: [
                TunablesFeature(
                    absence: "`keyscope replay --serve` shows a recording, which holds no tunables; read or change "
                        + "them on the running service (keyscope tune get --port PORT)"),
                PreferencesFeature(), WatchesFeature(), RecordingsFeature(),
            ],
            logger: Logger(label: "keyscope.server"))
        do {
            try server.start()
        } catch {
            throw ServeFailure.starting(error, host: host, port: options.port)
        }
        Console.line("Keyscope dashboard: \(server.dashboardURL ?? "")")
        return server
    }
}
