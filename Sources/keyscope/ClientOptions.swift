import ArgumentParser
import Foundation
import KeyscopeClient
import KeyscopeInspector
import KeyscopeProtocol
import KeyscopeRedis
import Synchronization

/// The options every client command shares: which server to talk to and its token.
///
/// ```
/// $ keyscope snapshot                                   # the newest local server, found through its record
/// $ keyscope snapshot --port 8081                       # the local server on port 8081
/// $ keyscope snapshot --url http://127.0.0.1:8081 --token 3f9c…
/// ```
/// Without `--url` the server is found through the record a running server writes for tools on the same machine
/// (``ServerRecord``): the one on `--port`, else the newest (named on stderr when several are running). The token is
/// `--token`, else `$KEYSCOPE_TOKEN`, else the record's.
struct ClientOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Port of a server on this machine, found through its server record (without a record: 127.0.0.1 "
                + "with --token or KEYSCOPE_TOKEN).",
            valueName: "N"))
    var port: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Address of the server, http://HOST:PORT (needs --token or KEYSCOPE_TOKEN unless a record on this "
                + "machine has it).",
            valueName: "URL"))
    var url: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The server's token (default: $KEYSCOPE_TOKEN, else the token in the server's record).", valueName: "T"))
    var token: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "On a fleet dashboard (keyscope fleet): the instance to reach, or '*' for every live one (without --port "
                + "or --url, the newest fleet dashboard on this machine).",
            valueName: "ID"))
    var instance: String?

    func validate() throws {
        if let instance, instance != "*" {
            do {
                try RedisBackend.checkFleetName(instance, "instance id")
            } catch {
                throw ValidationError("--instance must be an instance id or '*': \(error.message).")
            }
        }
        if url != nil && port != nil {
            throw ValidationError("Give --url or --port, not both: --url already names the port.")
        }
        if let port, !(1...65_535).contains(port) {
            throw ValidationError("--port must be from 1 to 65535; got \(port).")
        }
        if let url {
            do {
                _ = try InspectorEndpoint(url: url, token: "")
            } catch {
                throw ValidationError(error.message)
            }
        }
    }

    /// The server to connect to, with its token (see the type's notes for the order things are looked up in).
    func endpoint(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> InspectorEndpoint {
        var endpoint = try server(environment: environment)
        endpoint.instance = instance
        return endpoint
    }

    /// Whether the command reaches every instance of a fleet (`--instance '*'`).
    var allInstances: Bool { instance == "*" }

    /// The server, before the instance is named.
    private func server(environment: [String: String]) throws -> InspectorEndpoint {
        let given = TokenOption.given(token, environment: environment)
        if let url {
            var endpoint = try InspectorEndpoint(url: url, token: given ?? "")
            if given == nil {
                guard let record = try? ServerRecord.find(port: endpoint.port),
                    InspectorEndpoint(record: record).host == endpoint.host
                else {
                    throw CommandFailure(
                        "no token for \(url): pass --token T or set KEYSCOPE_TOKEN (the server prints its token in "
                            + "its dashboard URL, ?token=…)")
                }
                endpoint.token = record.token
            }
            return endpoint
        }
        if instance != nil, port == nil {
            // A fleet dashboard names itself "keyscope fleet NAME": the newest one, not an instance's own server.
            guard let record = ServerRecord.live().first(where: { $0.name.hasPrefix(Self.fleetServerName) }) else {
                throw CommandFailure(
                    "--instance needs a fleet dashboard, and none is running on this machine: start one with "
                        + "`keyscope fleet --redis URL --fleet NAME`, or name it with --port or --url")
            }
            var endpoint = InspectorEndpoint(record: record)
            if let given { endpoint.token = given }
            return endpoint
        }
        do {
            let record = try ServerRecord.find(port: port)
            if port == nil { ServerChoiceNotice.tell(record, among: ServerRecord.live()) }
            var endpoint = InspectorEndpoint(record: record)
            if let given { endpoint.token = given }
            return endpoint
        } catch {
            // A server elsewhere (or one that keeps no record) is still reachable on loopback with a token.
            if let port, let given { return InspectorEndpoint(host: "127.0.0.1", port: port, token: given) }
            throw CommandFailure(error.description)
        }
    }

    /// How a fleet dashboard's server record names it (`keyscope fleet NAME`).
    static let fleetServerName = "keyscope fleet"

    /// What to do when the server refuses the token: it depends on where the token came from.
    func tokenAdvice(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let printed = "the token is in the dashboard URL the server printed (?token=…)"
        if token != nil {
            return "the server refused the token given with --token; \(printed), or leave --token out to use the "
                + "server's record on this machine"
        }
        if TokenOption.given(nil, environment: environment) != nil {
            return "the server refused the token in KEYSCOPE_TOKEN (one of another server?); unset KEYSCOPE_TOKEN to "
                + "use the server's record on this machine, or set it again: \(printed)"
        }
        return "the server refused the token of its record in \(ServerRecord.directory.path) (another process "
            + "serves that port now?); pass --token T: \(printed)"
    }

    /// Connects to ``endpoint(environment:)``, turning a refusal into advice.
    func connect(configuration: InspectorClient.Configuration = .init()) async throws -> InspectorClient {
        LibWebSocketsLogging.set(.errors)
        let endpoint = try endpoint()
        do {
            return try await InspectorClient.connect(to: endpoint, configuration: configuration)
        } catch let error as InspectorClientError {
            switch error.httpStatus {
            case 401?:
                throw CommandFailure("\(endpoint) answered 401 Unauthorized: \(tokenAdvice())")
            case 404? where instance != nil:
                throw CommandFailure(
                    "\(error.message): no instance \"\(instance ?? "")\" in that fleet (GET /api/fleet lists them), or "
                        + "the server is not a fleet dashboard")
            case 403?:
                throw CommandFailure(
                    "\(error.message); connect through localhost or 127.0.0.1, or start the server with "
                        + "--allow-host for the name you used")
            default:
                guard error.code == .connectionFailed else { throw CommandFailure(error.message) }
                throw CommandFailure("\(error.message) (is a keyscope server running there?)")
            }
        }
    }
}

/// Tells once per process, on stderr, which server a client picked when several are running and no `--port` said.
///
/// ```
/// keyscope: 2 servers are running; using the newest, keyscope replay on port 40123 (pass --port N for another:
/// 8081 keyscope demo)
/// ```
enum ServerChoiceNotice {
    private static let told = Mutex(false)

    /// Prints the notice when `records` holds more than `chosen` and it was not printed yet.
    static func tell(_ chosen: ServerRecord, among records: [ServerRecord]) {
        guard let text = text(chosen, among: records) else { return }
        guard
            told.withLock({ told in
                defer { told = true }
                return !told
            })
        else { return }
        Console.error(text)
    }

    /// The notice; `nil` when `chosen` is the only server.
    static func text(_ chosen: ServerRecord, among records: [ServerRecord]) -> String? {
        let others = records.filter { $0.port != chosen.port }
        guard !others.isEmpty else { return nil }
        let list = others.map { "\($0.port) \($0.name)" }.joined(separator: ", ")
        return "keyscope: \(others.count + 1) servers are running; using the newest, \(chosen.name) on port "
            + "\(chosen.port) (pass --port N for another: \(list))"
    }
}
