import ArgumentParser
import Foundation
import KeyscopeRedis
import Logging
import ShopService

/// `shop-service`: the example shop's HTTP API, with the Keyscope inspector beside it in debug builds.
@main
struct ShopServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shop-service",
        abstract: "An example tea shop API whose state lives in Keyscope stores.",
        discussion: """
            Serves GET /catalogue, GET /cart, POST /cart/items, DELETE /cart/items/:id, DELETE /cart and GET /flags on \
            --port (the cart routes act on the cart the Cart-ID header names, `guest` without one). A \
            debug build also runs the Keyscope inspector on --inspector-port (loopback only, with a token); the \
            keyscope CLI finds it by itself (`swift run keyscope snapshot` in the Keyscope checkout). A release build \
            opens no inspector port. With --redis the flags are shared by every instance of --fleet, and a debug build \
            joins that fleet (`swift run keyscope fleet --redis URL --fleet shop` shows every instance). SIGINT or \
            SIGTERM stops both gracefully.
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
            "Keep the shared flags (app/backend:flags) in this Redis, live across every instance, and join the "
                + "fleet there (debug builds): redis://[user:password@]host:port[/db] (default: $KEYSCOPE_REDIS_URL; "
                + "without one the flags stay in this process).", valueName: "URL"))
    var redis: String?

    @Option(help: "The fleet: the instances that share one set of flags in Redis and one `keyscope fleet` dashboard.")
    var fleet = "shop"

    @Option(help: "This instance's id among the fleet's (default: <hostname>-<pid>).")
    var instance: String?

    func run() async throws {
        var logger = Logger(label: "shop")
        logger.logLevel = .info
        var configuration = ShopServer.Configuration(dataDirectory: URL(fileURLWithPath: data, isDirectory: true))
        configuration.host = host
        configuration.port = port
        configuration.inspectorPort = inspectorPort
        configuration.redis =
            redis ?? ProcessInfo.processInfo.environment["KEYSCOPE_REDIS_URL"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.fleet = fleet
        configuration.instance = instance
        let server: ShopServer
        do {
            server = try ShopServer(configuration, logger: logger)
        } catch let error as RedisError {
            throw ValidationError("--redis, --fleet or --instance: \(error.message)")
        }
        // The API and (debug builds) the inspector, until SIGINT or SIGTERM; then the fleet is told we left.
        try await server.run()
    }
}
