import ArgumentParser
import KeyscopeClient
import KeyscopeCore

/// `keyscope write`: one write into a store of a running inspector, through the WebSocket protocol.
///
/// ```
/// $ keyscope write app/memory cart.total 100
/// ok seq 42
/// ```
struct WriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write",
        abstract: "Write one value into a store of a running inspector server.",
        discussion: """
            Sends {"type": "write", "store": STORE, "op": OP, "path": PATH, "value": VALUE} over the server's \
            WebSocket and prints the reply: "ok seq N" with the seq of the change it made ("ok seq null (nothing \
            changed)" when it changed nothing, as when removing a missing key); when the write made a key that did \
            not exist before, stderr says "keyscope write: created KEY, …" (a misspelt path shows up that way). A store the \
            server does not have is an error that lists its stores and the closest one; a read-only server (as \
            `replay --serve` always is) is an error that says so. The server's refusals are printed as its error \
            code and message on stderr (bad_path, type_mismatch, out_of_range, …). Every failure exits with status \
            1; a bad argument exits with status 64.

            VALUE is JSON text: 100, 2.5, true, null, '"text"' (a string needs its JSON quotes, inside shell \
            quotes), '[1,2]', '{"a":1}', '{"$color":"#FF8800"}'. With --string, VALUE is taken as a string as it \
            is. A negative number is taken as a VALUE (-5, -2.5), not as an option. --op remove takes no VALUE.

            Examples:
              keyscope write app/memory cart.total 100
              keyscope write app/memory cart.note hello --string
              keyscope write app/memory 'items[0]' '{"title":"Tea"}' --op insert
              keyscope write app/memory cart.coupon --op remove
              keyscope write app/memory user '{"name":"B"}' --op merge
              keyscope write app/memory cart.total -5
            """
    )

    @Argument(help: ArgumentHelp("The store's id, e.g. app/memory.", valueName: "STORE"))
    var store: String

    @Argument(help: ArgumentHelp("The key path, e.g. cart.total or items[0] ('' for the root).", valueName: "PATH"))
    var path: String

    @Argument(
        help: ArgumentHelp(
            "The value as JSON text (or as a string with --string); none for --op remove.", valueName: "VALUE"))
    var value: String?

    @Option(name: .long, help: "The operation: set, insert, remove or merge.")
    var op: WriteOperation = .set

    @Flag(name: .long, help: "Take VALUE as a string as it is, not as JSON.")
    var string = false

    @OptionGroup(title: "Server")
    var server: ClientOptions

    func validate() throws {
        do {
            _ = try request()
        } catch {
            throw ValidationError(error.message)
        }
    }

    func run() async throws {
        let request = try request()
        let client = try await server.connect()
        if server.allInstances { return try await writeEverywhere(request, client) }
        let reply: InspectorReply
        do {
            // The server's first words say whether it takes writes and which stores it has, so a misspelt store or
            // a read-only server is explained before anything is sent.
            guard let greeting = try await client.greeting() else {
                throw CommandFailure("\(client.endpoint) closed the connection before it sent a snapshot")
            }
            try FleetReplies.checkFleet(greeting.hello, options: server, endpoint: client.endpoint)
            if greeting.readOnly { throw CommandFailure(greeting.readOnlyAdvice) }
            guard greeting.storeIDs.contains(request.store) else {
                throw CommandFailure(KnownStores.unknown(request.store, among: greeting.storeIDs))
            }
            reply = try await client.send(request: request.message)
        } catch {
            await client.close()
            throw error as? CommandFailure ?? CommandFailure("\(error)")
        }
        await client.close()
        if let error = reply.error {
            Console.error("error \(error.code): \(error.message)")
            throw ExitCode.failure
        }
        Console.line(Self.outcome(reply))
        if let notice = Self.creationNotice(reply, store: request.store) { Console.error(notice) }
    }

    /// `--instance '*'`: the write goes to every live instance of the fleet; one line per instance's answer, and a
    /// failure exit when any refused it.
    private func writeEverywhere(_ request: WriteRequest, _ client: InspectorClient) async throws {
        let reply: InspectorReply
        do {
            guard case .object(var fields) = request.message else { throw CommandFailure("a write is an object") }
            fields["instance"] = "*"
            reply = try await client.send(request: .object(fields))
        } catch {
            await client.close()
            throw error as? CommandFailure ?? CommandFailure("\(error)")
        }
        await client.close()
        if let error = reply.error {
            Console.error("error \(error.code): \(error.message)")
            throw ExitCode.failure
        }
        let (lines, allOK) = FleetReplies.lines(reply, success: Self.outcome)
        for line in lines { allOK ? Console.line(line) : Console.error(line) }
        if !allOK { throw ExitCode.failure }
    }

    /// `ok seq N` or `ok seq null (nothing changed)`, for stdout.
    static func outcome(_ reply: InspectorReply) -> String {
        reply.seq.map { "ok seq \($0)" } ?? "ok seq null (nothing changed)"
    }

    /// For stderr, when the write created a key that did not exist before: which, and how to take it out.
    static func creationNotice(_ reply: InspectorReply, store: String) -> String? {
        let created = (reply.result?["created"]?.arrayValue ?? []).compactMap(\.stringValue)
        guard let first = created.first else { return nil }
        return "keyscope write: created \(created.joined(separator: ", ")), which did not exist before (a typo? "
            + "`keyscope write \(store) \(first) --op remove` takes it out)"
    }

    private func request() throws(CommandFailure) -> WriteRequest {
        try WriteRequest(store: store, path: path, value: value, op: op, asString: string)
    }
}
