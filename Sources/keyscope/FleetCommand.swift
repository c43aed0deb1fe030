import ArgumentParser
import Foundation
import KeyscopeCore
import KeyscopeFleet
import KeyscopeInspector
import KeyscopeProtocol
import KeyscopeRecording
import KeyscopeRedis
import KeyscopeServer
import Logging

/// `keyscope fleet`: the dashboard of every instance of a fleet, from Redis.
///
/// ```
/// $ keyscope fleet --redis redis://127.0.0.1:6379 --fleet shop
/// Keyscope fleet dashboard: http://127.0.0.1:8090/?token=…
/// ```
struct FleetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Serve the dashboard of every instance of a fleet (instances joined with serve --redis).",
        discussion: """
            Follows every instance that joined the fleet NAME in the Redis at --redis (a service embedding \
            Keyscope with a FleetMember, or `keyscope serve --demo --redis URL --fleet NAME --instance ID`) and \
            serves the same dashboard as `serve`, with an instance picker. On start it prints one line,
              Keyscope fleet dashboard: http://127.0.0.1:PORT/?token=TOKEN
            and writes the address and token to a file only you can read, where the client commands find them \
            (`tail --instance ID`). The server keeps every rule of `serve`: loopback unless --host, the token, Host \
            and Origin checks, the limits; --read-only refuses every request to an instance here.

            HTTP: GET /api/fleet lists the instances (live or gone, last seen, seq, change rate); GET \
            /api/snapshot?instance=ID reads one instance's state; POST /api/request?instance=ID|* carries a request to \
            one instance or all of them; GET /api/fleet/diff?a=ID&b=ID lists every key path whose value differs; POST \
            /api/recordings?instance=ID records one instance. WebSocket: /ws?instance=ID \
            speaks the protocol of that instance (its requests are carried to it), /ws?instance=* merges every \
            instance's changes and sends a request to one instance or to all. The Redis URL's password is never \
            printed. See docs/fleet.md.
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The fleet's Redis (redis://[user:password@]host:port[/db]; default $KEYSCOPE_REDIS_URL).",
            valueName: "URL"))
    var redis: String?

    @Option(name: .long, help: ArgumentHelp("Fleet name: the Redis key prefix (default keyscope).", valueName: "NAME"))
    var fleet: String = "keyscope"

    @Option(
        name: .customLong("recordings"),
        help: ArgumentHelp(
            "Where recordings of an instance (POST /api/recordings?instance=ID, the dashboard's Record button) go "
                + "(default: recordings/ in the state folder).",
            valueName: "DIR"))
    var recordingsDirectory: String?

    @OptionGroup(title: "Listening")
    var listener: ListenerOptions

    @Option(name: .long, help: "Level of log messages on stderr.")
    var logLevel: LogLevelOption = .warning

    func run() async throws {
        try await Keyscope.reportingUsageErrors(of: Self.self) { try await serveFleet() }
    }

    private func serveFleet() async throws {
        logLevel.bootstrapLogging()
        guard
            let url = redis
                ?? ProcessInfo.processInfo.environment["KEYSCOPE_REDIS_URL"].flatMap({ $0.isEmpty ? nil : $0 })
        else {
            throw ValidationError("fleet needs --redis URL (or KEYSCOPE_REDIS_URL): the Redis its instances joined.")
        }
        let viewOptions: FleetView.Options
        do {
            viewOptions = try FleetView.Options(redis: url, fleet: fleet)
        } catch {
            throw ValidationError("--redis: \(error.message)")
        }
        let stop = StopRequest()
        let watcher = SignalWatcher([SIGINT, SIGTERM]) { _ in stop.request() }
        var options = listener.serverOptions(defaultPort: ListenerOptions.fleetPort)
        options.name = "keyscope fleet \(fleet)"
        let dashboard = FleetDashboard(FleetView(viewOptions), readOnly: listener.readOnly)
        let server = Inspector.makeServer(
            registry: StoreRegistry(), options: options,
            hubOptions: HubOptions(
                readOnly: listener.readOnly,
                readOnlyReason: listener.readOnly ? "it was started with `keyscope fleet --read-only`" : nil),
            features: [dashboard], logger: Logger(label: "keyscope.fleet"))
        let recordings = RecordingLibrary(
            folder: recordingsDirectory.map { URL(fileURLWithPath: $0) } ?? KeyscopeStateFolder.named("recordings"))
        server.hub.add(RecordingsFeature(recordings, feeds: dashboard.recordingFeeds))
        do {
            try server.start()
        } catch {
            dashboard.view.stop()
            throw ServeFailure.starting(error, host: listener.host, port: options.port)
        }
        Console.line("Keyscope fleet dashboard: \(server.dashboardURL ?? "")")
        Console.error("Following fleet \(fleet) in \(viewOptions.redis)")
        await stop.waitUntilRequested()
        watcher.stop()
        recordings.stopAll()
        server.stop()
        dashboard.view.stop()
    }
}
