import ArgumentParser
import Foundation
import KeyscopeClient
import KeyscopeInspector

/// The options every client command shares: which server to talk to and its token.
///
/// ```
/// $ keyscope snapshot                                   # the newest local server, found through its record
/// $ keyscope snapshot --port 8081                       # the local server on port 8081
/// $ keyscope snapshot --url http://127.0.0.1:8081 --token 3f9c…
/// ```
/// Without `--url` the server is found through the record a running server writes for tools on the same machine
/// (``ServerRecord``): the one on `--port`, else the newest. The token is `--token`, else `$KEYSCOPE_TOKEN`,
/// else the record's.
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

    func validate() throws {
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
        do {
            var endpoint = InspectorEndpoint(record: try ServerRecord.find(port: port))
            if let given { endpoint.token = given }
            return endpoint
        } catch {
            // A server elsewhere (or one that keeps no record) is still reachable on loopback with a token.
            if let port, let given { return InspectorEndpoint(host: "127.0.0.1", port: port, token: given) }
            throw CommandFailure(error.description)
        }
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
                throw CommandFailure(
                    "\(error.message); pass the server's token with --token T or KEYSCOPE_TOKEN (it is in the "
                        + "dashboard URL the server printed, ?token=…)")
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
