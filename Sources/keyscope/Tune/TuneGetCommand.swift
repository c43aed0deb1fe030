import ArgumentParser
import KeyscopeClient
import KeyscopeCore

/// `keyscope tune get [KEY]`: every tunable, or one.
///
/// ```
/// $ keyscope tune get
/// {
///   "accent": {"$color": "#FF8800"},
///   "toolbar_height": 48
/// }
/// $ keyscope tune get toolbar_height
/// 48
/// ```
struct TuneGetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print every tunable, or the value of one.",
        discussion: """
            Reads GET /tune. Without KEY, prints the object of every tunable as pretty JSON with sorted keys; with \
            KEY, prints that tunable's value as compact JSON (docs/store.md: 48, 2.5, "text", {"$color": "#FF8800"}). \
            A KEY the service has no tunable for is an error (exit status 1) that lists the tunables and the \
            closest one, as is a server without tunables (error: no_tunables: …).

            Examples:
              keyscope tune get
              keyscope tune get toolbar_height
              keyscope tune get --url http://127.0.0.1:8081 --token "$TOKEN"
            """
    )

    @Argument(help: ArgumentHelp("The tunable to print (default: all of them).", valueName: "KEY"))
    var key: String?

    @OptionGroup(title: "Server")
    var server: ClientOptions

    func run() throws {
        let values = try server.tunableValues()
        guard let key else {
            Console.line(String(decoding: StoreValue.object(values).jsonData(pretty: true).dropLast(), as: UTF8.self))
            return
        }
        guard let value = values[key] else {
            Console.error("error: no tunable \"\(key)\"; " + TuneFailure.knownKeys(values.keys.sorted(), near: key))
            throw ExitCode.failure
        }
        Console.line(value.jsonText(sortedKeys: true))
    }
}
