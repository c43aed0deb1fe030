import ArgumentParser
import KeyscopeClient
import KeyscopeCodec
import KeyscopeCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `keyscope tail`: follows a running inspector's change log, one line per entry.
///
/// ```
/// $ keyscope tail --store app/memory --prefix cart --count 2
/// #42 12:03:04.123 app/memory set cart.total 99.5 → 104.5
/// #43 12:03:04.180 app/memory txn 1f0c9a2e set cart.total 104.5 → 110.5; remove cart.coupon (was "SAVE10")
/// ```
struct TailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail",
        abstract: "Follow a running inspector server's change log, one line per entry.",
        discussion: """
            Connects to the server's WebSocket and prints each log entry of its changes messages that follow the \
            snapshot it starts with: "#SEQ TIME STORE" then the patches ("set cart.total 99.5 → 104.5", \
            "insert items[2] {…}", "remove cart.coupon (was "SAVE10")", "merge user {…}"), joined with "; ", \
            after "txn" and the first 8 hex digits of the transaction id for a transaction; store events read \
            "registered, version V, ROOT", "reset to {} for version V" and "removed". TIME is local time with \
            milliseconds. With --json each entry is printed instead as its LOG-FORMAT line (compact JSON, sorted \
            keys), whole even when --prefix selects only some of its patches.

            --store (repeatable) keeps the entries of those stores. A store the server does not have is an error \
            (exit status 1) listing its stores and the closest one, except a well-formed id unlike all of them (a \
            scenario's store registered later), which is followed from when it is registered, with a notice on \
            stderr, and another if a store whose id is close to it registers (a misspelling of a store that comes \
            and goes). --prefix keeps the patches at that key path or below it, by segments: cart matches cart, \
            cart.total and cart[0], not cartoon; store events (registered, reset, removed) pass whenever their \
            store does, since they replace the whole root, so without --store they show for every store. Runs \
            until Ctrl-C, until --count entries were printed, or until the server closes the connection. Notices (the starting seq, a gap when this client fell behind and entries were \
            skipped, the server closing) go to stderr.

            Examples:
              keyscope tail
              keyscope tail --store app/memory --prefix cart
              keyscope tail --store app/memory --store scenario:checkout/memory --count 10
              keyscope tail --json > changes.jsonl
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp("Follow only this store (repeat for more), e.g. app/memory.", valueName: "ID"))
    var store: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp("Keep only patches at this key path or below it, e.g. cart.", valueName: "KEYPATH"))
    var prefix: String?

    @Flag(name: .long, help: "Print each entry as its raw LOG-FORMAT JSON line.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Exit after printing this many entries.", valueName: "N"))
    var count: Int?

    @OptionGroup(title: "Server")
    var server: ClientOptions

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1; got \(count).") }
        _ = try filter()
    }

    func run() async throws {
        let filter = try filter()
        let client = try await server.connect()
        let stop = TailStop()
        let watcher = SignalWatcher([SIGINT, SIGTERM]) { _ in
            stop.request()
            Task { await client.close() }
        }
        defer { watcher.stop() }
        var printed = 0
        var snapshots = 0
        var awaited: [String] = []
        do {
            following: for try await message in client.messages {
                switch InspectorMessage(message) {
                case .hello(let hello):
                    try FleetReplies.checkFleet(hello, options: server, endpoint: client.endpoint)
                    if server.allInstances {
                        Console.error("keyscope tail: following every instance of \(client.endpoint) (Ctrl-C stops)")
                    }
                case .snapshot(let snapshot):
                    if snapshots == 0 { awaited = try checkStores(KnownStores.ids(in: snapshot)) }
                    let seq = snapshot["seq"]?.integerValue.map { "#\($0)" } ?? "?"
                    Console.error(
                        snapshots == 0
                            ? "keyscope tail: following \(client.endpoint) from \(seq) (Ctrl-C stops)"
                            : "keyscope tail: resuming from \(seq)")
                    snapshots += 1
                case .changes(let entries):
                    for entry in entries {
                        guard show(entry, filter, awaited: &awaited) else { continue }
                        printed += 1
                        if let count, printed >= count { break following }
                    }
                case .gap(let from, let to):
                    let instance = message["instance"]?.stringValue
                    Console.error(TailFormatter.gapNotice(from: from, to: to, instance: instance))
                default:
                    continue
                }
            }
        } catch {
            await client.close()
            throw error as? CommandFailure ?? CommandFailure("\(error)")
        }
        await client.close()
        if !stop.requested && printed < (count ?? .max) {
            Console.error("keyscope tail: \(client.endpoint) closed the connection")
        }
    }

    /// Fails for a --store the server does not have (with its stores and the closest one), unless it is a well-formed
    /// id unlike any of them: a scenario's store may be registered later, so that one is only noted on stderr.
    /// Returns those awaited ids.
    private func checkStores(_ ids: [String]) throws(CommandFailure) -> [String] {
        var awaited: [String] = []
        for id in store where !ids.contains(id) {
            let message = KnownStores.unknown(id, among: ids)
            guard StoreID(id) != nil, KnownStores.closest(to: id, among: ids) == nil else {
                throw CommandFailure(message)
            }
            Console.error("keyscope tail: \(message); following it from when it is registered")
            awaited.append(id)
        }
        return awaited
    }

    /// When a store registers whose id is close to an awaited --store (that store is not there yet, and perhaps
    /// never will be: a misspelling of one that comes and goes), says so once.
    private func noteNearMiss(_ entry: LogEntry, awaited: inout [String]) {
        guard case .registered(let id, _, _) = entry.event, !awaited.isEmpty else { return }
        let registered = id.description
        guard let index = awaited.firstIndex(where: { KnownStores.closest(to: $0, among: [registered]) != nil })
        else { return }
        Console.error(
            "keyscope tail: \(registered) was registered; did you mean it? (still waiting for \(awaited[index]); "
                + "Ctrl-C, then `keyscope tail --store \(registered)`)")
        awaited.remove(at: index)
    }

    /// Prints one entry when the filter keeps it; returns whether it printed.
    private func show(_ value: StoreValue, _ filter: TailFilter, awaited: inout [String]) -> Bool {
        let line = value.jsonText(sortedKeys: true)
        let entry: LogEntry
        do {
            entry = try JanssonCodec.decodeLogEntry(Array(line.utf8))
        } catch {
            Console.error("keyscope tail: skipped an entry that is not a log event (\(error)): \(line)")
            return false
        }
        noteNearMiss(entry, awaited: &awaited)
        guard let kept = filter.select(entry) else { return false }
        // On a fleet dashboard's merged stream every entry names its instance: so does the line.
        let instance = value["instance"]?.stringValue.map { "[\($0)] " } ?? ""
        Console.line(json ? line : instance + TailFormatter.line(kept))
        return true
    }

    private func filter() throws -> TailFilter {
        guard let prefix else { return TailFilter(stores: store) }
        do {
            return TailFilter(stores: store, prefix: try StoreKeyPath(parsing: prefix))
        } catch {
            throw ValidationError("--prefix \"\(prefix)\" is not a key path: \(error)")
        }
    }
}

/// Whether Ctrl-C asked `tail` to stop (so that the end is not reported as the server closing).
private final class TailStop: Sendable {
    private let flag = Mutex(false)

    var requested: Bool { flag.withLock { $0 } }

    func request() { flag.withLock { $0 = true } }
}
