import ArgumentParser
import KeyscopeClient

/// `keyscope tune remove KEY`: removes one tunable (the way out of a key `tune set` created by mistake).
///
/// ```
/// $ keyscope tune remove toolbr_height
/// removed toolbr_height (seq 42)
/// ```
struct TuneRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove one tunable of a running service.",
        discussion: """
            Sends DELETE /tune/KEY (the key percent-encoded as one path segment) and prints "removed KEY (seq N)". \
            The service's reads of the key then give its bundled default, if it has one; a key only edits made \
            (such as one `tune set` created by a typo) is gone. A refusal is printed as "error: CODE: MESSAGE" on \
            stderr with exit status 1: unknown_key (no such tunable) also lists the tunables there are and the \
            closest one; missing_key (the schema requires the key), read_only and no_tunables are refusals too.

            Examples:
              keyscope tune remove toolbr_height
              keyscope tune remove banner_delay --port 8081
            """
    )

    @Argument(help: ArgumentHelp("The tunable's key.", valueName: "KEY"))
    var key: String

    @OptionGroup(title: "Server")
    var server: ClientOptions

    func validate() throws {
        if key.isEmpty { throw ValidationError("KEY must not be empty.") }
        if server.allInstances { throw ValidationError("--instance '*' is not taken by remove: name one instance.") }
    }

    func run() throws {
        let result: TunablesClient.Result
        do {
            result = try server.tunablesClient().remove(key: key)
        } catch let error as TunablesClientError {
            throw TuneFailure.report(error, server: server, key: key)
        }
        Console.line("removed \(key) (\(result.seq.map { "seq \($0)" } ?? "nothing changed"))")
    }
}
