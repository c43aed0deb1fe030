import ArgumentParser
import Foundation
import Hummingbird
import KeyscopeRedis
import KeyscopeServer
import KeyscopeServiceLifecycle
import KeyscopeTunables
import Logging
import ShopService

/// `shop-service`: the example shop's HTTP API, with the Keyscope inspector beside it in debug builds.
@main
struct ShopServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shop-service",
        abstract: "An example tea shop API whose state lives in Keyscope stores.",
        discussion: """
            Serves GET /catalogue, GET /cart, POST /cart/items, DELETE /cart/items/:id and GET /flags on --port. A \
            debug build also runs the Keyscope inspector on --inspector-port (loopback only, with a token); the \
            keyscope CLI finds it by itself (`swift run keyscope snapshot` in the Keyscope checkout). A release build \
            opens no inspector port. SIGINT or SIGTERM stops both gracefully.
            """)

    @Option(help: "The address the API listens on.")
    var host = "127.0.0.1"

    @Option(help: "The API's port.")
    var port = 8080

    @Option(help: "The inspector's port (debug builds only; 0 picks a free one).")
    var inspectorPort = 8091

    @Option(help: "Where settings and tunables are kept across restarts.")
    var data = ".shop-data"

    @Option(
        help: ArgumentHelp(
            "Keep the shared flags (app/backend:flags) in this Redis, live across every instance: "
                + "redis://[user:password@]host:port[/db] (default: $KEYSCOPE_REDIS_URL; without one they stay in "
                + "this process).", valueName: "URL"))
    var redis: String?

    @Option(help: "The fleet: the instances that share one set of flags in Redis.")
    var fleet = "shop"

    @Option(help: "This instance's id among the fleet's (default: <hostname>-<pid>).")
    var instance: String?

    func run() async throws {
        var logger = Logger(label: "shop")
        logger.logLevel = .info
        let redisURL = redis ?? ProcessInfo.processInfo.environment["KEYSCOPE_REDIS_URL"]
        // Redis is never on a request's path: a write goes on while it is down and reaches it when it is back.
        let backend = try redisURL.map { try RedisBackend(url: $0, fleet: fleet, instance: instance) }
        if let backend { logger.info("shared flags in Redis", metadata: ["redis": "\(backend.url)"]) }
        let stores = try ShopStores(
            dataDirectory: URL(fileURLWithPath: data, isDirectory: true), backend: backend, logger: logger)
        defer { stores.stop() }
        var options = ServerOptions()
        options.port = inspectorPort
        options.name = "shop-service"
        // nil in a release build: no inspector, no port, no thread.
        let inspector = InspectorService(
            registry: stores.registry, options: options, features: [TunablesFeature(stores.tunables)],
            logger: logger)
        if inspector == nil { logger.info("release build: no inspector") }
        let app = ShopApplication.make(stores: stores, host: host, port: port, inspector: inspector, logger: logger)
        try await app.runService()
    }
}
