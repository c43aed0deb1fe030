import ArgumentParser
import KeyscopeClient

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `keyscope tune watch [FILE]`: pushes every save of a tunables file to the running service.
///
/// ```
/// $ keyscope tune watch
/// keyscope tune watch: watching live-constants.json, pushing to http://127.0.0.1:8081 (Ctrl-C stops)
/// pushed 12 tunables (seq 41)
/// pushed 12 tunables (seq 57)
/// ```
struct TuneWatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Push every save of a tunables file to a running service.",
        discussion: """
            Pushes FILE (default: live-constants.json, as written by `tune pull`) once at start and again after \
            every save that changes its bytes, with POST /tune: the file's object replaces every tunable (keys left \
            out are removed), as one change in the service's log. A save is pushed within about 30 ms (inotify on \
            the file's directory on Linux, so editors that save through a temporary file and a rename are seen too; \
            polling every 50 ms elsewhere). Prints "pushed N tunables (seq S)" for each push.

            Invalid JSON, a value the service refuses (its code and message), and a service that cannot be reached \
            are each reported on one line on stderr, and the watch goes on, also when no service runs yet: fix the \
            file (or start the service) and save again; a save that could not reach the service is pushed again \
            even with the same bytes. Without --url, each push looks the service up again (its server record), so \
            a service started or restarted later is found. Ctrl-C or \
            SIGTERM stops it (exit status 0).

            Against a fleet dashboard (keyscope fleet), --instance ID pushes to that instance, and --instance '*' \
            to every live one, with one line per instance.

            Examples:
              keyscope tune pull && keyscope tune watch
              keyscope tune watch config/tunables.json --port 8081
            """
    )

    @Argument(help: ArgumentHelp("The file to watch.", valueName: "FILE"))
    var file: String = TunablesFile.defaultName

    @OptionGroup(title: "Server")
    var server: ClientOptions

    func run() throws {
        let target = TunablesFile(path: file)
        let watcher = FileChanges(url: target.url)
        let signals = SignalWatcher([SIGINT, SIGTERM]) { _ in watcher.stop() }
        defer { signals.stop() }
        // No server yet is no reason to stop: the pusher looks for one at every save.
        let destination = (try? server.endpoint()).map(\.origin) ?? "the service once it runs"
        TunablesPusher.notice("watching \(target.path), pushing to \(destination) (Ctrl-C stops)")
        var pusher = TunablesPusher(file: target, server: server)
        pusher.pushIfChanged()
        while watcher.next() { pusher.pushIfChanged() }
        TunablesPusher.notice("stopped")
    }
}
