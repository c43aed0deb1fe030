public import KeyscopeCore
public import KeyscopeInspector
public import KeyscopeServer
public import Logging
public import ServiceLifecycle

/// The inspector as a swift-service-lifecycle `Service`, to run beside a Hummingbird or Vapor server in one
/// `ServiceGroup`: it starts listening with the group and closes every client (1001) on graceful shutdown.
///
/// ```swift
/// var services: [any Service] = [app]
/// if let inspector = InspectorService() { services.append(inspector) }   // nil in release builds
/// let group = ServiceGroup(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
/// try await group.run()
/// ```
/// Like ``KeyscopeServer/Inspector/start(registry:options:hubOptions:features:force:logger:)``,
/// it exists only in debug builds unless `force` is set. A service runs once: its server cannot be started again
/// after it stopped.
public struct InspectorService: Service {
    /// The server this service runs (its ``KeyscopeServer/InspectorServer/dashboardURL`` is set while it runs).
    public let server: InspectorServer
    let logger: Logger

    /// `nil` in a release build without `force`. `features` are served as by
    /// ``KeyscopeServer/Inspector/start(registry:options:hubOptions:features:force:logger:)``.
    public init?(
        registry: StoreRegistry = .shared, options: ServerOptions = ServerOptions(), hubOptions: HubOptions? = nil,
        features: [any InspectorFeature] = [], force: Bool = false, logger: Logger = Logger(label: "keyscope.inspector")
    ) {
        guard Inspector.isEnabledByDefault || force else { return nil }
        self.server = Inspector.makeServer(
            registry: registry, options: options.servingBuiltInDashboard(), hubOptions: hubOptions, features: features,
            logger: logger)
        self.logger = logger
    }

    /// Serves until graceful shutdown (or cancellation), then stops the server.
    ///
    /// When the server cannot start (its port is taken, an option is invalid), it logs why and waits for the
    /// group's shutdown without serving: a service that threw or returned would end the whole group, and the
    /// inspector must never be what stops the app.
    public func run() async throws {
        let started: Bool
        do {
            try server.start()
            logger.notice("\(server.dashboardLogLine)")
            started = true
        } catch {
            logger.error("Keyscope inspector not started: \(error); the other services go on without it")
            started = false
        }
        defer { if started { server.stop() } }
        // Returns on graceful shutdown; throws CancellationError when the group cancels this service: both end it.
        try? await gracefulShutdown()
    }
}
