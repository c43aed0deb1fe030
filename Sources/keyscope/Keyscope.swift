import ArgumentParser

/// The `keyscope` command: the root that holds the subcommands.
///
/// ```
/// $ keyscope serve --demo
/// $ keyscope tail --prefix cart
/// ```
@main
struct Keyscope: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyscope",
        abstract: "A debug inspector for application state kept in Keyscope stores.",
        discussion: """
            Keyscope keeps a service's state in stores addressed by key paths (cart.total, items[0].title) and \
            records every change as patches. `serve --demo` runs a demo service with the inspector: a dashboard \
            in the browser and a WebSocket stream of every change. `snapshot`, `tail` and `write` use that \
            stream from a terminal, and `tune` reads and changes a service's tunable constants; they find a running \
            server by themselves, and `open` prints its dashboard URL with the token. `record` saves a service's changes as a recording (.kslog); `verify`, `state` \
            and `replay` check, print and replay one. `demo` runs the demo service alone and prints every change.
            """,
        version: "keyscope \(KeyscopeVersion.current)",
        subcommands: [
            ServeCommand.self, SnapshotCommand.self, TailCommand.self, WriteCommand.self, TuneCommand.self,
            DemoCommand.self, RecordCommand.self, VerifyCommand.self, StateCommand.self, ReplayCommand.self,
            OpenCommand.self, FleetCommand.self,
        ]
    )

    /// Parses the command line (with ``NegativeValues`` applied) and runs the command.
    static func main() async {
        await main(NegativeValues.rewrite(Array(CommandLine.arguments.dropFirst())))
    }
}
