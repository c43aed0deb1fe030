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

    /// Starts an inspector on `registry` serving `features`; returns its handle, or `nil` in a release build without
    /// `force`.
    ///
    /// ```swift
    /// try Inspector.start(features: [myFeature])     // each feature's module says how it is made
    /// ```
    /// Each feature brings its routes and requests (docs/architecture.md, "Features"); more can be added later with
    /// `handle.server.hub.add(_:)`.
    /// - Throws: ``ServerError`` when the server cannot listen or an option is invalid (also logged as an error, so a
    ///   service that goes on without its inspector still says why).
    @discardableResult
    public static func start(
        registry: StoreRegistry = .shared, options: ServerOptions = ServerOptions(), hubOptions: HubOptions? = nil,
        features: [any InspectorFeature] = [], force: Bool = false, logger: Logger = Logger(label: "keyscope.inspector")
    ) throws(ServerError) -> InspectorHandle? {
        guard isEnabledByDefault || force else { return nil }
        let server = makeServer(
            registry: registry, options: options.servingBuiltInDashboard(), hubOptions: hubOptions, features: features,
            logger: logger)
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

    /// The one wiring of hub and server that every way of starting an inspector shares (``start(registry:options:
    /// hubOptions:features:force:logger:)``, the service-lifecycle service, the `keyscope` commands): a hub on
    /// `registry` with `features`, read-only when either set of options says so, and a server on it (not started).
    public static func makeServer(
        registry: StoreRegistry = .shared, options: ServerOptions, hubOptions: HubOptions? = nil,
        features: [any InspectorFeature] = [], logger: Logger
    ) -> InspectorServer {
        var settings = hubOptions ?? HubOptions()
        settings.readOnly = settings.readOnly || options.readOnly
        let hub = InspectorHub(registry: registry, options: settings, features: features)
        return InspectorServer(hub: hub, options: options, logger: logger)
    }

    /// Inspectors started by ``start(registry:options:hubOptions:features:force:logger:)`` and not yet stopped: they live here so that a dropped handle does not end them.
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
