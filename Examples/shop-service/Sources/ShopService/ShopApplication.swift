public import Hummingbird
public import KeyscopeServiceLifecycle
public import Logging

/// The shop as a Hummingbird application, with the inspector as one of its services when there is one (debug
/// builds): both start with the application and stop with it on graceful shutdown (SIGTERM, SIGINT).
///
/// ```swift
/// let stores = try ShopStores(dataDirectory: URL(fileURLWithPath: ".shop-data"))
/// let features: [any InspectorFeature] = [TunablesFeature(stores.tunables)]
/// let inspector = InspectorService(registry: stores.registry, features: features)   // nil in release builds
/// try await ShopApplication.make(stores: stores, port: 8080, inspector: inspector).runService()
/// ```
/// ``ShopServer`` does this from `shop-service`'s options, with the fleet when there is a Redis URL.
public enum ShopApplication {
    /// The application serving `stores` on `host`:`port`, running `inspector` beside it when there is one.
    public static func make(
        stores: ShopStores, host: String = "127.0.0.1", port: Int, inspector: InspectorService?,
        logger: Logger = Logger(label: "shop")
    ) -> some ApplicationProtocol {
        let router = Router()
        router.add(middleware: LogRequestsMiddleware(.debug))
        stores.addRoutes(to: router)
        var app = Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: "shop-service"),
            logger: logger)
        if let inspector { app.addServices(inspector) }
        return app
    }
}
