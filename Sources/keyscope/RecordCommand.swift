import ArgumentParser
import Foundation
import KeyscopeClient
import KeyscopeCodec
import KeyscopeCore
import KeyscopeRecording
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `keyscope record`: writes a running inspector's change log to a `.kslog` file (docs/recording.md).
///
/// ```
/// $ keyscope record -o checkout.kslog --duration 30s --mute user.payment
/// keyscope record: recording 127.0.0.1:8081 from #4211 into checkout.kslog (Ctrl-C stops)
/// keyscope record: 612 events, 148.2 KiB in 30.0 s into checkout.kslog (duration)
/// ```
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a running inspector server's changes into a .kslog file.",
        discussion: """
            Connects to the server's WebSocket like `tail`, writes the snapshot it starts with as the file's \
            header (every store's root and version, the server's name and pid, this machine's host name) and then \
            every change and store event as one JSON line, numbered from seq 1 (the server's own seq is kept as \
            "liveSeq"). The format is docs/recording.md and LOG-FORMAT: `keyscope verify`, `state` and `replay` \
            read it, and so does the dashboard's Replay tab.

            Runs until Ctrl-C (or SIGTERM), until --duration has passed, or until the next line would take the \
            file over --max-bytes; then prints a summary on stderr (events, bytes, duration). Each line is written \
            as soon as it arrives, so the file is valid at every moment (an interruption loses at most a partial \
            last line). When the server skips entries because this client fell behind (a gap), the recording ends \
            with an error (exit status 1): the file holds every event before the gap.

            --mute PATTERN replaces the values at a key path in every store with "•••• (muted)" (a `*` segment \
            matches any one key or index: sessions[*].token; literal indexes are refused); changes only below a \
            muted path are left out. --mute-store ID leaves a whole store out (an id close to one of the \
            server's stores but not it is an error listing them: a misspelling would leave the store in). Secrets are redacted by the server \
            already. The file is created with mode 0600 and never overwrites one unless --force.

            Examples:
              keyscope record -o session.kslog
              keyscope record -o checkout.kslog --duration 30s --max-bytes 10MiB
              keyscope record -o private.kslog --mute user.payment --mute "sessions[*].token" --mute-store app/memory
            """
    )

    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp("The file to write (a new file unless --force).", valueName: "FILE"))
    var output: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Stop after this long: 30s, 5m, 1h or plain seconds (default: until Ctrl-C).", valueName: "TIME"))
    var duration: DurationArgument?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Stop before the file would exceed this size, header included (KiB, MiB suffixes).", valueName: "SIZE"))
    var maxBytes: ByteSize?

    @Option(
        name: .customLong("mute"),
        help: ArgumentHelp(
            "Replace the values at this key path in every store (repeatable; * matches one key or index).",
            valueName: "PATTERN"))
    var mute: [String] = []

    @Option(
        name: .customLong("mute-store"),
        help: ArgumentHelp("Leave this store out entirely (repeatable), e.g. app/memory.", valueName: "ID"))
    var muteStore: [String] = []

    @Flag(name: .long, help: "Overwrite FILE when it exists.")
    var force = false

    @Option(
        name: .long,
        help: ArgumentHelp("The host name the header gives (default: this machine's).", valueName: "NAME"))
    var hostName: String?

    @OptionGroup(title: "Server")
    var server: ClientOptions

    func validate() throws {
        if let maxBytes, maxBytes.bytes < 1 { throw ValidationError("--max-bytes must be at least 1 byte.") }
        if output.isEmpty { throw ValidationError("-o/--output needs a file name.") }
        _ = try rules()
    }

    func run() async throws {
        let url = URL(fileURLWithPath: output)
        // Checked before connecting, so the advice can name the flag (the writer's own refusal cannot).
        if !force, FileManager.default.fileExists(atPath: url.path) {
            throw CommandFailure("\(output) already exists; pass --force to overwrite it, or choose another -o FILE")
        }
        let options = RecordingWriter.Options(maxBytes: maxBytes?.bytes, mute: try rules(), overwrite: force)
        var session = RecordSession(url: url, options: options, host: hostName ?? RecordingHeader.Source.hostName())
        let client = try await server.connect()
        let stop = RecordStop()
        let watcher = SignalWatcher([SIGINT, SIGTERM]) { _ in
            stop.request("stopped")
            Task { await client.close() }
        }
        defer { watcher.stop() }
        let timer = duration.map { duration in
            Task {
                try await Task.sleep(for: duration.duration)
                stop.request("duration")
                await client.close()
            }
        }
        defer { timer?.cancel() }
        let clock = ContinuousClock()
        var began: ContinuousClock.Instant?
        var end: RecordSession.End?
        var failure: (any Error)?
        do {
            for try await message in client.messages {
                if session.writer == nil, case .snapshot(let snapshot) = InspectorMessage(message) {
                    try checkMutedStores(KnownStores.ids(in: snapshot))
                }
                end = try session.handle(message)
                if began == nil, session.writer != nil {
                    began = clock.now
                    let seq = session.firstLiveSeq
                    Console.error(
                        "keyscope record: recording \(client.endpoint) from #\(seq) into \(output) (Ctrl-C stops)")
                }
                if end != nil { break }
            }
        } catch {
            failure = error
        }
        await client.close()
        guard let writer = session.writer else {
            throw failure.map { CommandFailure("\($0)") }
                ?? CommandFailure(
                    "\(client.endpoint) closed the connection before sending a snapshot; nothing recorded")
        }
        writer.close()
        let seconds = began.map { (clock.now - $0) / .seconds(1) } ?? 0
        let reason: String
        switch end {
        case .maxBytes?: reason = "max-bytes"
        case .fellBehind?: reason = "fell-behind"
        case nil: reason = stop.reason ?? (failure == nil ? "the server closed the connection" : "connection lost")
        }
        Console.error(Self.summary(writer.counts, seconds: seconds, file: output, reason: reason))
        if case .fellBehind(let why)? = end {
            let last = writer.counts.lastLiveSeq.map { "live seq #\($0)" } ?? "the header"
            throw CommandFailure("the recording fell behind: \(why); \(output) holds every event up to \(last)")
        }
        if let failure, stop.reason == nil { throw CommandFailure("\(failure)") }
    }

    /// Fails before anything is written for a --mute-store that looks like a misspelling of one of the server's
    /// stores; a well-formed id unlike all of them (a store registered later) is only noted on stderr.
    private func checkMutedStores(_ ids: [String]) throws(CommandFailure) {
        for id in muteStore where !ids.contains(id) {
            let message = "--mute-store: " + KnownStores.unknown(id, among: ids)
            guard StoreID(id) != nil, KnownStores.closest(to: id, among: ids) == nil else {
                throw CommandFailure(message)
            }
            Console.error("keyscope record: \(message); muted from when it is registered")
        }
    }

    /// `612 events, 148.2 KiB in 30.0 s into FILE (duration)`.
    static func summary(_ counts: RecordingWriter.Counts, seconds: Double, file: String, reason: String) -> String {
        let kib = Double(counts.bytes) / 1024
        let size = kib < 1024 ? String(format: "%.1f KiB", kib) : String(format: "%.1f MiB", kib / 1024)
        let events = counts.events == 1 ? "1 event" : "\(counts.events) events"
        return "keyscope record: \(events), \(size) in \(String(format: "%.1f", seconds)) s into \(file) (\(reason))"
    }

    private func rules() throws -> MuteRules {
        // An id that is no store id at all cannot match; checkMutedStores(_:) refuses it with the server's stores.
        let stores = muteStore.compactMap(StoreID.init)
        do {
            return try MuteRules(patterns: mute, stores: stores)
        } catch {
            throw ValidationError("--mute: \(error.message)")
        }
    }
}

/// Why the recording was asked to end (Ctrl-C, the duration), set once.
private final class RecordStop: Sendable {
    private let state = Mutex<String?>(nil)

    var reason: String? { state.withLock { $0 } }

    func request(_ reason: String) {
        state.withLock { if $0 == nil { $0 = reason } }
    }
}
