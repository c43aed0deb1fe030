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
            changed)" when it changed nothing, as when removing a missing key), or the server's error code and \
            message on stderr with exit status 1 (unknown_store, bad_path, type_mismatch, out_of_range, read_only, …).

            VALUE is JSON text: 100, 2.5, true, null, '"text"' (a string needs its JSON quotes, inside shell \
            quotes), '[1,2]', '{"a":1}', '{"$color":"#FF8800"}'. With --string, VALUE is taken as a string as it \
            is. A negative number goes after --, so that it is not read as an option. --op remove takes no VALUE.

            Examples:
              keyscope write app/memory cart.total 100
              keyscope write app/memory cart.note hello --string
              keyscope write app/memory 'items[0]' '{"title":"Tea"}' --op insert
              keyscope write app/memory cart.coupon --op remove
              keyscope write app/memory user '{"name":"B"}' --op merge
              keyscope write app/memory cart.total -- -5
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
        let reply: InspectorReply
        do {
            reply = try await client.send(request: request.message)
        } catch {
            await client.close()
            throw CommandFailure("\(error)")
        }
        await client.close()
        if let error = reply.error {
            Console.error("error \(error.code): \(error.message)")
            throw ExitCode.failure
        }
        if let seq = reply.seq {
            Console.line("ok seq \(seq)")
        } else {
            Console.line("ok seq null (nothing changed)")
        }
    }

    private func request() throws(CommandFailure) -> WriteRequest {
        try WriteRequest(store: store, path: path, value: value, op: op, asString: string)
    }
}
