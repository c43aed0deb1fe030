import ArgumentParser
import KeyscopeClient
import KeyscopeCore

/// `keyscope tune pull [FILE]`: every tunable into a file.
///
/// ```
/// $ keyscope tune pull
/// wrote 12 tunables to live-constants.json
/// ```
struct TunePullCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Write every tunable of a running service to a JSON file.",
        discussion: """
            Reads GET /tune and writes it to FILE (default: live-constants.json in the current directory) as \
            pretty-printed JSON with sorted keys and a final newline: the same values always give the same bytes, \
            so the file diffs cleanly. The file is replaced atomically (written beside it, then renamed over it), so \
            an editor or a running `tune watch` never sees half of it. Values are JSON as in docs/store.md (colors, urls \
            and non-finite numbers as {"$color": …}, {"$url": …}, {"$number": …}).

            Examples:
              keyscope tune pull
              keyscope tune pull config/tunables.json --port 8081
            """
    )

    @Argument(help: ArgumentHelp("The file to write.", valueName: "FILE"))
    var file: String = TunablesFile.defaultName

    @OptionGroup(title: "Server")
    var server: ClientOptions

    func run() throws {
        let values = try server.tunableValues()
        let target = TunablesFile(path: file)
        try target.write(values)
        Console.line("wrote \(values.count) tunable\(values.count == 1 ? "" : "s") to \(target.path)")
    }
}
