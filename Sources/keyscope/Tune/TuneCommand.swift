import ArgumentParser

/// `keyscope tune`: the tunable constants of a running service, over the inspector's HTTP endpoints.
///
/// ```
/// $ keyscope tune get toolbar_height
/// 48
/// $ keyscope tune set toolbar_height 64
/// toolbar_height = 64 (seq 41)
/// $ keyscope tune pull && keyscope tune watch
/// ```
struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Read and change the tunable constants of a running service.",
        discussion: """
            A service that embeds the inspector with tunables \
            (Inspector.start(features: [TunablesFeature(tunables)])) serves them at /tune: GET /tune reads them \
            all, PUT /tune/KEY/VALUE sets one, DELETE /tune/KEY removes one, POST /tune replaces them all \
            (docs/protocol.md). These commands speak that HTTP API and find the server and its token like \
            `snapshot` and `write` do (the server's record on this machine, or --url/--port and --token). A server \
            without tunables answers no_tunables. Against a fleet dashboard (keyscope fleet), --instance ID reaches \
            that instance's tunables (the dashboard carries each request to it); `tune set` and `tune watch` also \
            take --instance '*' for every live instance.

            Typical loop: `keyscope tune pull` writes live-constants.json, `keyscope tune watch` pushes every save \
            of it back to the service while you edit.
            """,
        subcommands: [
            TuneGetCommand.self, TuneSetCommand.self, TuneRemoveCommand.self, TunePullCommand.self,
            TuneWatchCommand.self,
        ]
    )
}
