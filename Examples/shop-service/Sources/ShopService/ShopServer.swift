public import Foundation
public import Hummingbird
public import KeyscopeCore
public import KeyscopeFleet
import KeyscopeInspector
import KeyscopeRedis
import KeyscopeServer
public import KeyscopeServiceLifecycle
import KeyscopeTunables
public import Logging

/// Everything `shop-service` runs, made from its options: the stores, the inspector beside the API (debug builds
/// only) with the tunables panel, and, with a Redis URL, the shared flags in Redis and the instance's membership of
/// the fleet that `keyscope fleet` shows.
///
/// ```swift
/// let server = try ShopServer(ShopServer.Configuration(dataDirectory: URL(fileURLWithPath: ".shop-data")))
/// try await server.run()                          // until SIGINT or SIGTERM
/// ```
public final class ShopServer: Sendable {
    /// `shop-service`'s options.
    public struct Configuration: Sendable {
        /// The address and port the API listens on.
        public var host = "127.0.0.1"
        public var port = 8080
        /// The inspector's port (0 picks a free one); debug builds only.
        public var inspectorPort = 8091
        /// Writes the server record the `keyscope` CLI finds the inspector by (tests running side by side don't).
        public var writesServerRecord = true
        /// Where settings and tunables are kept across restarts.
        public var dataDirectory: URL
        /// The Redis of the shared flags and of the fleet: `redis://[user:password@]host:port[/db]`; `nil` keeps the
        /// flags in this process and joins no fleet.
        public var redis: String?
        /// The fleet: the instances sharing one set of flags and one fleet dashboard.
        public var fleet = "shop"
        /// This instance's id in the fleet (default `<hostname>-<pid>`).
        public var instance: String?

        public init(dataDirectory: URL) { self.dataDirectory = dataDirectory }
    }

    public let stores: ShopStores
    /// The inspector; `nil` in a release build: no port, no thread.
    public let inspector: InspectorService?
    /// The instance's membership of the fleet (debug builds with a Redis URL).
    public let fleetMember: FleetMember?
    private let configuration: Configuration
    private let logger: Logger

    /// Opens the stores and makes the inspector; nothing listens before ``run()``.
    /// - Throws: `RedisError` `badURL` naming what is wrong with the URL, the fleet or the instance id (never the
    ///   password); an error opening the data folder or the tunables.
    public init(
        _ configuration: Configuration, registry: StoreRegistry = .shared, logger: Logger = Logger(label: "shop")
    ) throws {
        self.configuration = configuration
        self.logger = logger
        // One id for both: the origin of this instance's flag changes and its name in the fleet dashboard.
        let instance = configuration.instance ?? RedisBackend.defaultInstanceID()
        // Redis is never on a request's path: a write goes on while it is down and reaches it when it is back.
        let redis = try configuration.redis.map {
            try RedisBackend(url: $0, fleet: configuration.fleet, instance: instance)
        }
        if let redis {
            logger.info(
                "shared flags in Redis",
                metadata: ["redis": "\(redis.url)", "fleet": "\(configuration.fleet)", "instance": "\(instance)"])
        }
        // Without Redis the flags are this process's alone.
        let backend: any BackendAdapter = redis ?? InMemoryBackend()
        stores = try ShopStores(
            dataDirectory: configuration.dataDirectory, registry: registry, backend: backend, logger: logger)
        var options = ServerOptions()
        options.port = configuration.inspectorPort
        options.name = "shop-service"
        options.writesServerRecord = configuration.writesServerRecord
        var features: [any InspectorFeature] = [TunablesFeature(stores.tunables)]
        let member = try configuration.redis.map {
            FleetMember(
                try FleetOptions(redis: $0, fleet: configuration.fleet, instance: instance, name: "shop-service"),
                logger: logger)
        }
        if let member { features.append(member) }
        inspector = InspectorService(registry: registry, options: options, features: features, logger: logger)
        // The member publishes through the inspector: without one (release builds) it never starts.
        fleetMember = inspector == nil ? nil : member
        if inspector == nil { logger.info("release build: no inspector") }
    }

    /// The Hummingbird application: the API, with the inspector among its services.
    public func application() -> some ApplicationProtocol {
        ShopApplication.make(
            stores: stores, host: configuration.host, port: configuration.port, inspector: inspector, logger: logger)
    }

    /// Serves the API and the inspector until SIGINT or SIGTERM, then shuts both down gracefully and ``stop()``s.
    public func run() async throws {
        defer { stop() }
        try await application().runService()
    }

    /// Leaves the fleet (a fleet dashboard shows the instance gone at once) and saves the tunables.
    public func stop() {
        fleetMember?.leave()
        stores.stop()
    }
}
