import ArgumentParser
import Foundation
import KeyscopeCore
import KeyscopeFleet
import KeyscopeInspector
import KeyscopePreferences
import KeyscopeProtocol
import KeyscopeRecording
import KeyscopeServer
import KeyscopeTunables
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `keyscope serve --demo`: the inspector server on a demo service whose stores change on their own.
///
/// ```
/// $ keyscope serve --demo --port 0 --rate 50
/// Keyscope dashboard: http://127.0.0.1:40123/?token=…
/// ```
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the inspector (dashboard, WebSocket stream, HTTP API) for a demo service.",
        discussion: """
            With --demo, starts a demo service (a cart, a checkout scenario, persisted settings) that changes its \
            stores --rate times per second, and the inspector on it; --demo-keys N adds a still product catalog of \
            N keys (scenario:catalog/memory) for measuring a dashboard on a large store. The demo's tunables \
            (live-constants.json, with a schema) are served at /tune and in the dashboard's Tunables tab: --tunables \
            FILE serves other defaults instead (its writable copy kept in demo/tunables-HASH/ of the state \
            folder), --no-tunables none. On start it prints one line,
              Keyscope dashboard: http://127.0.0.1:PORT/?token=TOKEN
            and writes the address and token to a file only you can read, where the client commands (`snapshot`, \
            `tail`, `write`, `tune`, `record`, `open`) find them; with several servers running they use the newest \
            and name it on stderr (--port N picks one). Ctrl-C (or SIGTERM) closes every client with 1001 and \
            exits. A port that cannot be listened on (another server has it, or --host is not an address of this \
            machine) is an error with exit status 1: pass --port 0 for a free port.

            State folder: $KEYSCOPE_HOME, else $XDG_STATE_HOME/keyscope, else ~/.local/state/keyscope. The demo \
            keeps its tunables (demo/live-constants.json, with your edits) and its settings store \
            (demo/state.json) there, so both survive restarts; delete demo/ to start afresh. The server records \
            (servers/, or $XDG_RUNTIME_DIR/keyscope/servers), recordings (recordings/) and the demo's file \
            secrets (secrets/) are there too.

            The demo keeps settings in a UserDefaults suite (com.keyscope.demo, under $XDG_CONFIG_HOME or \
            ~/.config), tokens in a secret store (--secrets) and three statuses in com.keyscope.demo.status; the \
            inspector scans every suite and secret service it finds (Preferences tab, /api/preferences) and serves \
            the statuses and watch rules (Watches tab, /api/watches). Secrets are redacted unless --reveal-secrets, \
            and their mirror stores (app/secrets:<service>) are never synced through Redis; see docs/preferences.md.

            The shop's shared feature flags and banner are a backend store (app/backend:shop) that changes every \
            few seconds. With --redis URL (or KEYSCOPE_REDIS_URL) it lives in Redis under --fleet, shared live by \
            every instance given the same URL and fleet; the URL's password is never printed. See docs/fleet.md.

            Security: the server listens on loopback unless --host says otherwise, accepts only Host headers \
            naming localhost, 127.0.0.1 or [::1] (plus --allow-host names) with its own port, checks Origin on \
            WebSocket upgrades and every non-GET request, and needs the token for everything but the dashboard's \
            files. The token is random per start unless --token or KEYSCOPE_TOKEN gives one (16 or more URL-safe \
            characters). Each HTTP connection answers one request (Connection: close); see docs/protocol.md.

            Recordings (docs/recording.md): the dashboard's Record button and POST /api/recordings record the \
            demo into --recordings (default: recordings/ in the state folder); \
            GET /api/recordings lists those and the recordings of --offer-recordings (default the package's \
            fixtures/recordings/) for the Replay tab. Not on a --read-only server; at most --max-recordings at \
            once, each 1 hour and 64 MiB at most, and none once the folder holds --recordings-limit.

            Sizes take KiB or MiB suffixes (16KiB, 4MiB).
            """
    )

    @Flag(name: .long, help: "Run the demo service (the only service this command can run for now).")
    var demo = false

    @OptionGroup(title: "Listening")
    var listener: ListenerOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Demo changes per second (1 to 100000; batched each millisecond above 1999).", valueName: "N"))
    var rate: Int = DemoConfiguration.defaultRate

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Also register scenario:catalog/memory, a product catalog of N keys (0: none; at most 2000000).",
            valueName: "N"))
    var demoKeys: Int = 0

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Most changes the inspector keeps for clients that fall behind or reconnect.", valueName: "N"))
    var logEntries: Int = 100_000

    @Option(name: .long, help: ArgumentHelp("Most bytes of changes the inspector keeps.", valueName: "SIZE"))
    var logBytes = ByteSize(bytes: 64 << 20)

    @Option(name: .long, help: ArgumentHelp("Seed for the demo's random changes.", valueName: "N"))
    var seed: UInt64?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Serve these tunables instead of the demo's: the bundled defaults (a JSON object), with "
                + "live-constants.schema.json beside it as the schema when there is one.",
            valueName: "FILE"))
    var tunables: String?

    @Flag(name: .long, help: "Serve no tunables at all (/tune and the tune request then answer no_tunables).")
    var noTunables = false

    @Option(
        name: .customLong("recordings"),
        help: ArgumentHelp(
            "Where recordings made through the inspector go (default: recordings/ in the state folder, see "
                + "above).",
            valueName: "DIR"))
    var recordingsDirectory: String?

    @Option(
        name: .customLong("offer-recordings"),
        help: ArgumentHelp(
            "Recordings offered for replay as fixtures/… (default: the package's fixtures/recordings/).",
            valueName: "DIR"))
    var offeredRecordings: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Most recordings clients may run at once (too_many beyond).", valueName: "N"))
    var maxRecordings = RecordingLibrary.Limits().maxActive

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Most bytes the recordings folder may hold; new recordings are refused (no_space) past it.",
            valueName: "SIZE"))
    var recordingsLimit = ByteSize(bytes: RecordingLibrary.Limits().maxFolderBytes)

    @OptionGroup(title: "Preferences, secrets and watches")
    var preferences: PreferencesOptions

    @OptionGroup(title: "Backend storage on Redis")
    var redisOptions: RedisOptions

    @Option(name: .long, help: "Level of log messages on stderr.")
    var logLevel: LogLevelOption = .warning

    func validate() throws {
        guard demo else {
            throw ValidationError(
                "serve needs --demo (an application serves its own stores by embedding the inspector: "
                    + "Inspector.start).")
        }
        guard DemoConfiguration.rates.contains(rate) else {
            throw ValidationError(
                "--rate must be \(DemoConfiguration.rates.lowerBound) to \(DemoConfiguration.rates.upperBound) changes "
                    + "per second; got \(rate).")
        }
        guard (0...LargeCatalog.maximumKeys).contains(demoKeys) else {
            throw ValidationError("--demo-keys must be 0 to \(LargeCatalog.maximumKeys); got \(demoKeys).")
        }
        guard !(noTunables && tunables != nil) else {
            throw ValidationError("--tunables and --no-tunables cannot be used together.")
        }
        guard logEntries >= 1, logBytes.bytes >= 1 else {
            throw ValidationError("--log-entries and --log-bytes must be at least 1.")
        }
    }

    func run() async throws {
        try await Keyscope.reportingUsageErrors(of: Self.self) { try await serveDemo() }
    }

    private func serveDemo() async throws {
        logLevel.bootstrapLogging()
        MallocArenas.limit(to: MallocArenas.serveLimit)
        var options = listener.serverOptions(defaultPort: ListenerOptions.servePort)
        options.name = "keyscope demo"

        // Watch the signals before anything starts: a Ctrl-C the moment after the dashboard line is a clean stop.
        let stop = StopRequest()
        let watcher = SignalWatcher([SIGINT, SIGTERM]) { _ in stop.request() }
        // The demo keeps its tunables and settings file in the state folder, as a user's service keeps its data:
        // they survive restarts, and nothing is left in the temporary directory.
        let directory: URL
        do {
            directory = try DemoStateFolder.prepare()
        } catch {
            throw CommandFailure(
                "could not make the demo's state folder: \(error.localizedDescription); set KEYSCOPE_HOME or "
                    + "XDG_STATE_HOME to a folder you can write")
        }
        let constants: Tunables?
        do {
            constants =
                noTunables
                ? nil : try DemoTunables.open(in: directory, defaults: tunables.map { URL(fileURLWithPath: $0) })
        } catch {
            throw CommandFailure(
                "could not open the tunables\(tunables.map { " of --tunables \($0)" } ?? ""): \(error); fix the "
                    + "file, or pass --no-tunables to serve without tunables")
        }
        let backend = try redisOptions.makeBackend()
        let fleet = try redisOptions.makeFleetMember(name: options.name, readOnly: listener.readOnly)
        let server = Inspector.makeServer(
            options: options,
            hubOptions: HubOptions(
                maxEntries: logEntries, maxBytes: logBytes.bytes, readOnly: listener.readOnly,
                readOnlyReason: listener.readOnly ? "it was started with `keyscope serve --read-only`" : nil),
            features: [
                TunablesFeature(
                    constants,
                    absence: "this demo was started with --no-tunables; start it without that flag to serve its "
                        + "tunables")
            ],
            logger: Logger(label: "keyscope.server"))
        let hub = server.hub
        let scanned: DemoPreferences?
        do {
            scanned =
                preferences.noPreferences
                ? nil : try DemoPreferences.open(options: preferences, hub: hub, stateDirectory: directory)
        } catch {
            constants?.stop()
            throw CommandFailure(
                "could not open the preferences: \(error); pass --no-preferences to serve without them")
        }
        let recordings = RecordingLibrary(
            folder: recordingsDirectory.map { URL(fileURLWithPath: $0) }
                ?? KeyscopeStateFolder.named("recordings"),
            offered: (offeredRecordings.map { URL(fileURLWithPath: $0) }
                ?? PackageFolder.find("fixtures/recordings", marker: "README.md")).map { [$0] } ?? [],
            limits: RecordingLibrary.Limits(maxActive: maxRecordings, maxFolderBytes: recordingsLimit.bytes)
        )
        for feature in scanned?.features ?? [PreferencesFeature(), WatchesFeature()] { hub.add(feature) }
        hub.add(RecordingsFeature(recordings))
        if let fleet { hub.add(fleet) }
        do {
            try server.start()
        } catch {
            constants?.stop()
            scanned?.stop()
            throw ServeFailure.starting(error, host: listener.host, port: options.port)
        }
        scanned?.start()
        Console.line("Keyscope dashboard: \(server.dashboardURL ?? "")")

        let demo = DemoService(
            configuration: DemoConfiguration(
                rate: rate, seed: seed ?? UInt64.random(in: 0...UInt64(UInt32.max)), stateDirectory: directory,
                catalogKeys: demoKeys))
        // The shop's shared settings (app/backend:shop): in Redis with --redis, shared live with other instances.
        let shared = DemoSharedSettings(backend: backend)
        if let place = RedisOptions.describe(backend) {
            Console.error("Backend store app/backend:\(DemoSharedSettings.namespace) lives in \(place)")
        }
        shared.start(seed: seed ?? UInt64.random(in: 0...UInt64(UInt32.max)))
        let clock = ContinuousClock()
        let (began, changesBefore) = (clock.now, demo.changes)
        demo.start()

        await stop.waitUntilRequested()
        watcher.stop()
        // Recordings in progress end cleanly (everything up to now written), then clients (1001), then the stores
        // stop changing.
        recordings.stopAll()
        fleet?.leave()
        server.stop()
        await demo.stop()
        shared.stop()
        // How close the demo came to --rate, for whoever drives it hard (`--log-level notice` shows it).
        let seconds = (clock.now - began) / .seconds(1)
        let made = demo.changes - changesBefore
        let perSecond = Int((Double(made) / seconds).rounded())
        Logger(label: "keyscope.demo").notice(
            "demo made \(made) changes in \(String(format: "%.2f", seconds)) s: \(perSecond) per second (--rate \(rate))"
        )
        constants?.stop()
        scanned?.stop()
    }
}
