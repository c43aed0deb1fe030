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
            server by themselves, and `open` prints its dashboard URL with the token. `record` saves a service's \
            changes as a recording (.kslog); `verify`, `state` and `replay` check, print and replay one. `demo` \
            runs the demo service alone and prints every change.
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

    /// Runs `body`, the work of `command`; a bad option found only while running (a --public the server refuses, a
    /// missing --redis) is a usage error like one found while parsing: exit status 64 with the command's own usage
    /// line (ArgumentParser would print the root's, `keyscope <subcommand>`).
    static func reportingUsageErrors(
        of command: any ParsableCommand.Type, _ body: () async throws -> Void
    ) async throws {
        do {
            try await body()
        } catch let error as ValidationError {
            Console.error(usageError(error.message, of: command))
            throw ExitCode.validationFailure
        }
    }

    /// `Error: MESSAGE`, then the usage line of `command` and where its help is, as ArgumentParser prints a
    /// usage error found while parsing.
    static func usageError(_ message: String, of command: any ParsableCommand.Type) -> String {
        let name = (path(to: command) ?? [_commandName]).joined(separator: " ")
        return "Error: \(message)\nUsage: \(usageString(for: command))\n  See '\(name) --help' for more information."
    }

    /// The command names from the root down to `target` (`["keyscope", "tune", "set"]`); nil when it is not a
    /// subcommand of `node`.
    static func path(to target: any ParsableCommand.Type, from node: any ParsableCommand.Type = Keyscope.self)
        -> [String]?
    {
        if ObjectIdentifier(node) == ObjectIdentifier(target) { return [node._commandName] }
        for child in node.configuration.subcommands {
            if let below = path(to: target, from: child) { return [node._commandName] + below }
        }
        return nil
    }
}
