import ArgumentParser
import KeyscopeClient
import KeyscopeCore

/// `keyscope tune set KEY VALUE`: sets one tunable.
///
/// ```
/// $ keyscope tune set toolbar_height 64
/// toolbar_height = 64 (seq 41)
/// ```
struct TuneSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set one tunable of a running service.",
        discussion: """
            Sends PUT /tune/KEY/VALUE, each percent-encoded as one path segment, so that any value works (slashes, \
            spaces, #, %, non-ASCII; a key holds no "/"). The service reads VALUE as an integer when it is a JSON \
            number without fraction or exponent (64, -0), as a number when it is any other JSON number (2.5, 1e3), \
            and as a string otherwise (#ff8800, nan, 0x10, +1, true). A key the service does not have yet is \
            created (the tunables are an open JSON object). The service's schema checks it; prints \
            "KEY = VALUE (seq N)" with the value as the service stored it. A refusal is printed as \
            "error: CODE: MESSAGE" on stderr with exit status 1 (unknown_key, type_mismatch, out_of_range, \
            read_only, no_tunables, …); unknown_key (a service whose schema takes no new keys) also lists the \
            tunables there are and the closest one.

            A negative number is taken as a VALUE (-5, -2.5), not as an option. A string that reads as a number \
            ("64") cannot be sent this way: put it in the file and use `tune watch`.

            Examples:
              keyscope tune set toolbar_height 64
              keyscope tune set accent '#ff8800'
              keyscope tune set greeting 'Hello, world/2'
              keyscope tune set offset -5
            """
    )

    @Argument(help: ArgumentHelp("The tunable's key.", valueName: "KEY"))
    var key: String

    @Argument(help: ArgumentHelp("The new value, as text (see above for how it is read).", valueName: "VALUE"))
    var value: String

    @OptionGroup(title: "Server")
    var server: ClientOptions

    func validate() throws {
        if key.isEmpty { throw ValidationError("KEY must not be empty.") }
    }

    func run() throws {
        let result: TunablesClient.Result
        do {
            result = try TunablesClient(endpoint: try server.endpoint()).set(key: key, text: value)
        } catch let error as TunablesClientError {
            throw TuneFailure.report(error, server: server, key: key)
        }
        let stored = result.value?.jsonText(sortedKeys: true) ?? value
        Console.line("\(key) = \(stored) (\(result.seq.map { "seq \($0)" } ?? "nothing changed"))")
    }
}
