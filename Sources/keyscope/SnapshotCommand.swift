import ArgumentParser
import KeyscopeClient
import KeyscopeCore

/// `keyscope snapshot`: the state of a running inspector's stores, as JSON.
///
/// ```
/// $ keyscope snapshot --store app/memory --path cart.total
/// 104.5
/// ```
struct SnapshotCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Print the state of a running inspector server's stores as JSON.",
        discussion: """
            Connects to the server's WebSocket (/ws, subprotocol keyscope.v1), waits for its snapshot message, \
            closes, and prints: the whole snapshot message ({"type": "snapshot", "seq": N, "stores": [{"id", \
            "scope", "storage", "version", "root"}, …], "subscriptions": […]}), or with --store one store's root, \
            or with --path the value at that key path in it. Values are JSON as in docs/store.md (colors, urls and \
            non-finite numbers as {"$color": …}, {"$url": …}, {"$number": …}), pretty-printed with sorted keys \
            unless --compact is given. A missing store or path is an error (exit status 1); a missing store's error \
            lists the server's stores and the closest one.

            Examples:
              keyscope snapshot
              keyscope snapshot --store app/memory --compact
              keyscope snapshot --store app/memory --path 'items[0].title'
              keyscope snapshot --url http://127.0.0.1:8081 --token "$TOKEN" --store app/userPrefs
            """
    )

    @Option(name: .long, help: ArgumentHelp("Print only this store's root, e.g. app/memory.", valueName: "ID"))
    var store: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Print only the value at this key path in the store, e.g. cart.total or items[0] (with one store, "
                + "--store may be left out).",
            valueName: "KEYPATH"))
    var path: String?

    @Flag(name: .long, help: "Print compact JSON on one line instead of pretty-printed JSON.")
    var compact = false

    @OptionGroup(title: "Server")
    var server: ClientOptions

    func validate() throws {
        if server.allInstances {
            throw ValidationError(
                "snapshot reads one instance: --instance ID (the fleet dashboard's GET /api/fleet lists them; "
                    + "GET /api/fleet/diff?a=ID&b=ID compares two)")
        }
    }

    func run() async throws {
        let client = try await server.connect()
        let snapshot: StoreValue?
        do {
            let greeting = try await client.greeting()
            if let greeting { try FleetReplies.checkFleet(greeting.hello, options: server, endpoint: client.endpoint) }
            snapshot = greeting?.snapshot
        } catch let failure as CommandFailure {
            await client.close()
            throw failure
        } catch {
            await client.close()
            throw CommandFailure("\(error)")
        }
        await client.close()
        guard let snapshot else {
            throw CommandFailure("\(client.endpoint) closed the connection before it sent a snapshot")
        }
        let value = try SnapshotSelection.select(snapshot, store: store, path: path)
        Console.line(
            compact
                ? value.jsonText(sortedKeys: true)
                : String(decoding: value.jsonData(pretty: true).dropLast(), as: UTF8.self))
    }
}
