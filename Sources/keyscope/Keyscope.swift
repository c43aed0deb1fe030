import ArgumentParser

/// The `keyscope` command: the root that holds the subcommands.
///
/// ```
/// $ keyscope demo --rate 10 --seed 42
/// ```
@main
struct Keyscope: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyscope",
        abstract: "A debug inspector for application state kept in Keyscope stores.",
        discussion: """
            Keyscope keeps a service's state in stores addressed by key paths (cart.total, items[0].title) and \
            records every change as patches. This tool runs a demo service whose stores change on their own, \
            so that you can watch the changes, their transactions and the publishers that hear them.
            """,
        version: "keyscope \(KeyscopeVersion.current)",
        subcommands: [DemoCommand.self, ServeCommand.self]
    )
}
