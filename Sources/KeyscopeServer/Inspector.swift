public import KeyscopeCore
public import KeyscopeInspector
public import Logging
import Synchronization

/// The one call a service makes to inspect its stores in a debug build.
///
/// ```swift
/// import KeyscopeServer
///
/// let inspector = try Inspector.start()     // nil in a release build: no socket, no thread, no cost
/// // … the service runs; its log shows "Keyscope dashboard: http://127.0.0.1:8081/ (…the token is in FILE…)"
/// inspector?.stop()                         // optional: the inspector otherwise lives until the process ends
/// ```
/// It starts an ``InspectorHub`` on the registry (every store made by a factory or registered by hand is seen) and an
/// ``InspectorServer`` with the given options. **Release builds** (compiled without `DEBUG`, as `swift build -c
/// release` does) get `nil` and open nothing, unless `force` is set: an inspector in production must be asked for
/// by name. Dropping the handle does not stop the inspector.
public enum Inspector {
    /// Whether this build of Keyscope starts inspectors without `force` (compiled with `DEBUG`).
    public static var isEnabledByDefault: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }

    /// Starts an inspector on `registry`; returns its handle, or `nil` in a release build without `force`.
    ///
    /// `tunables` (whose store must be registered in `registry`) are served by `GET /tune`, `PUT /tune/:key/:value`,
    /// `DELETE /tune/:key`, `POST /tune`, `GET /api/tunables` and the WebSocket `tune` request; without them those
    /// answer `no_tunables`.
    /// They can also be attached later: `handle.server.hub.tunables = …`.
    ///
    /// `preferences` (whose mirror stores are registered in `registry`) are served by `GET /api/preferences`,
    /// `PUT` and `DELETE /api/preferences/:source/:container/:key`, `POST /api/preferences/refresh` and the
    /// WebSocket `preference` request; `watches` by `GET /api/watches` and `POST /api/watches/refresh`. Without them
    /// those answer `no_preferences` and `no_watches`; they too can be attached later (`hub.preferences = …`,
    /// `hub.watches = …`).
    ///
    /// `recordings` (KeyscopeRecording's `RecordingLibrary(folder:offered:)`) are served by `GET` and
    /// `POST /api/recordings`, `GET /api/recordings/<source>/<name>` and
    /// `POST /api/recordings/recordings/<name>/stop` (docs/recording.md); without them those answer `no_recordings`
    /// (or later: `hub.recordings = …`).
    /// - Throws: ``ServerError`` when the server cannot listen or an option is invalid (also logged as an error, so a
    ///   service that goes on without its inspector still says why).
    @discardableResult
    public static func start(
        registry: StoreRegistry = .shared, options: ServerOptions = ServerOptions(),
        hubOptions: HubOptions? = nil, tunables: (any TunablesEndpoint)? = nil,
        preferences: (any PreferencesEndpoint)? = nil, watches: (any WatchesEndpoint)? = nil,
        recordings: (any RecordingsEndpoint)? = nil, force: Bool = false,
        logger: Logger = Logger(label: "keyscope.inspector")
    ) throws(ServerError) -> InspectorHandle? {
        guard isEnabledByDefault || force else { return nil }
        var hubSettings = hubOptions ?? HubOptions()
        hubSettings.readOnly = hubSettings.readOnly || options.readOnly
        let hub = InspectorHub(registry: registry, options: hubSettings, tunables: tunables)
        hub.preferences = preferences
        hub.watches = watches
        hub.recordings = recordings
        let server = InspectorServer(hub: hub, options: options.servingBuiltInDashboard(), logger: logger)
        do {
            try server.start()
        } catch {
            // The host may carry on without its inspector (`try?`): its log still says why there is none.
            logger.error("Keyscope inspector not started: \(error)")
            throw error
        }
        let handle = InspectorHandle(server: server)
        running.withLock { $0.append(handle) }
        logger.notice("\(server.dashboardLogLine)")
        return handle
    }

    /// Inspectors started by ``start(registry:options:hubOptions:tunables:preferences:watches:recordings:force:logger:)`` and
    /// not yet stopped: they live here so that a dropped handle does not end them.
    static let running = Mutex<[InspectorHandle]>([])
}

/// A running inspector: its address, and the way to stop it.
public final class InspectorHandle: Sendable {
    public let server: InspectorServer

    init(server: InspectorServer) { self.server = server }

    /// `http://127.0.0.1:PORT/?token=TOKEN` (nil once stopped).
    public var dashboardURL: String? { server.dashboardURL }

    /// The port it listens on (nil once stopped).
    public var port: Int? { server.port }

    /// Closes every client with 1001 and frees the port. Idempotent.
    public func stop() {
        server.stop()
        Inspector.running.withLock { $0.removeAll { $0 === self } }
    }
}
