import Foundation

/// The inspector section's tables and the notes that say how each figure was measured (for the parts that ran); its
/// figures for the summary table are in InspectorReport+Figures.swift.
struct InspectorReport {
    typealias PushResult = (scenario: PushScenario, median: PushSample, all: [PushSample])

    var push: [PushResult] = []
    /// Each paced run, Keyscope's and the peer's at each rate.
    var latencies: [(kind: PushServerKind, sample: LatencySample)] = []
    var setResults: [BenchmarkResult] = []
    var setRounds = 0
    var setGaps = 0
    var elapsed = Duration.zero
    /// How long each part that ran took, in seconds.
    var partSeconds: [String: Double] = [:]

    var text: String {
        var sections: [String] = []
        if !push.isEmpty { sections.append(pushTable) }
        if !latencies.isEmpty { sections.append(latencyTable) }
        if !setResults.isEmpty { sections.append(setCostTable) }
        sections.append(notes)
        return sections.joined(separator: "\n\n")
    }

    /// Keyscope's live run to one parsing client, one patch per change: the run the summary line sets beside the
    /// peer's.
    private var keyscopeOneParsing: PushResult? {
        push.first {
            $0.scenario.kind == .keyscope && $0.scenario.clients == 1 && $0.scenario.mode == .parse
                && $0.scenario.patchesPerChange == 1 && !$0.scenario.backlog
        }
    }

    private var pushTable: String {
        // The ratio to the peer's run of the same shape; "—" where the peer has none (more than one client, catch-up).
        func versusPeer(_ result: PushResult) -> String {
            peerResult(for: result.scenario).map { Report.ratio(result.median.delivered / $0.median.delivered) } ?? "—"
        }
        var lines: [String] = []
        lines.append(
            "Inspector push throughput (patches delivered end to end; one patch per change and log entry unless the "
                + "scenario says transactions; median of \(pushRounds) runs)")
        lines.append(
            Report.grid(
                [
                    "scenario", "changes", "patches/s", "producer/s", "entries/msg", "MB/s/client", "behind",
                    "server µs/patch", "client µs/patch", "vs peer",
                ],
                push.map { result in
                    let median = result.median
                    return [
                        result.scenario.name, "\(result.scenario.changes)", rate(median.delivered),
                        rate(median.produced), Report.number(median.entriesPerMessage),
                        String(format: "%.1f", median.megabytesPerSecond), "\(median.behindAtProducerEnd)",
                        String(format: "%.2f", median.serverMicrosecondsPerPatch),
                        String(format: "%.2f", median.clientMicrosecondsPerPatch),
                        versusPeer(result),
                    ]
                }))
        if let keyscopeRun = keyscopeOneParsing, let peerRun = peerResult(for: keyscopeRun.scenario) {
            let own = keyscopeRun.all.map { rate($0.delivered) }.joined(separator: ", ")
            let theirs = peerRun.all.map { rate($0.delivered) }.joined(separator: ", ")
            let cpu = keyscopeRun.median.serverMicrosecondsPerPatch / peerRun.median.serverMicrosecondsPerPatch
            let ratio = keyscopeRun.median.delivered / peerRun.median.delivered
            lines.append(
                "Keyscope / Hummingbird, 1 parsing client: \(Report.ratio(ratio)) "
                    + "in patches/s (runs, interleaved: Keyscope \(own); Hummingbird \(theirs)); "
                    + "\(Report.ratio(cpu)) in server CPU per patch")
        }
        return lines.joined(separator: "\n")
    }

    private var latencyTable: String {
        "Inspector push latency (set → parsed at the client, 1 client; each server in turn at each rate)\n"
            + Report.grid(
                ["server", "paced rate", "achieved/s", "entries", "p50 µs", "p99 µs", "p99.9 µs", "max µs"],
                latencies.map { kind, latency in
                    [
                        kind == .keyscope ? "Keyscope" : "Hummingbird peer", "\(latency.rate)/s",
                        rate(latency.achievedRate), "\(latency.samples)", micro(latency.p50), micro(latency.p99),
                        micro(latency.p999), micro(latency.max),
                    ]
                })
    }

    private var setCostTable: String {
        "What an inspector costs a set (same stores, rounds interleaved)\n"
            + Report.ratioGrid(
                setResults, pairs: InspectedSetBenchmarks.pairs, ratioHeader: "inspected ÷ bare", missing: "")
    }

    /// How each part that ran was measured, one paragraph per part (the peer's whenever it ran beside Keyscope).
    private var notes: String {
        let sizes =
            push.first.map {
                "a set patch of \($0.median.patchBytes) bytes (with old and new), a log line of "
                    + "\($0.median.lineBytes) bytes"
            } ?? "a set patch with old and new"
        var paragraphs: [String] = []
        if !push.isEmpty {
            paragraphs.append(
                """
                How these were measured. The workload: an `app/memory` store of 100 items; each change is one \
                `store.set("items[i].title", …)` to the other of two 60-character titles, i = 0…99 in turn: \(sizes); \
                in the "10-set transactions" rows each change is one `store.apply` of 10 such sets to consecutive \
                items (one log entry with 10 patches). Every server runs in this process on 127.0.0.1, port 0, with a \
                fresh store, registry and InspectorHub per run (its log sized to hold the whole run: no client may get \
                a gap; the run fails if one does or if an entry is missing). Clients are this package's WebSocket \
                client on POSIX sockets, one thread each (upgrade with keyscope.v1 and the bearer token, unmasked \
                frames, 16/64-bit lengths, continuations); once every client has its snapshot, the main thread writes \
                the changes as fast as it can through the public store API. A parsing client parses every message \
                whole with jansson (json_loadb) and counts the `entries` array; a scanning client runs every message \
                through JSONScanner, a validating streaming parser that builds no tree (the JSON grammar, string \
                escapes, UTF-8 and number syntax checked on every byte; each entry's seq read and the entries \
                counted); the one that does not parse counts bytes and skims the last seq from the end of each \
                message. The "catch-up" rows write all their changes first, with no client connected, then connect the \
                client with ?resume=SEQ (the seq before them) and time it from the connection until it has the last \
                seq: no producer runs while they are timed (producer/s is the write loop before; behind is every \
                change). patches/s = patches written ÷ (time the slowest client read the message holding the last seq \
                − producer start, or the connection in a catch-up run), i.e. the minimum over the clients; producer/s \
                = patches ÷ the producer loop's own time; behind = entries the slowest client still lacked when the \
                producer finished; server µs/patch = CPU time of the server's threads per patch (the process's CPU \
                time from producer start, or the connection, until the last client is done, less the producer's and \
                the clients' thread CPU time: cursor reads, settling the log, line encoding, framing, writes to every \
                client); client µs/patch = the clients' thread CPU time per patch received (reading and parsing); vs \
                peer compares with the Hummingbird row of the same shape (clients, parsing, patches per change; the \
                peer feeds one client at a time, so the 10-client row has none, and it cannot resume a client, so the \
                catch-up rows have none). Scenarios run interleaved, one run of each per round.
                """)
        }
        if !push.isEmpty || !latencies.isEmpty {
            paragraphs.append(
                """
                The peer: a Hummingbird application (default set-up: NIO's singleton event loop group, route on the \
                global executor) whose hummingbird-websocket route checks the same bearer token, sends hello and the \
                snapshot's bytes, then, whenever the hub appended (the hub's appendSignal, at most one wake-up per burst, \
                as the Keyscope server does), reads the same HubCursor with the Keyscope server's frame limits (10,000 \
                entries, 256 KiB) and sends HubMessages.changes — the same cached HubLogEntry.lineBytes, so identical \
                bytes on the wire — as one text frame per read (one copy into a ByteBuffer), until the cursor is dry. \
                Same producer, same client, same hub; entries/msg shows the batching each server achieved.
                """)
        }
        if !latencies.isEmpty {
            paragraphs.append(
                """
                Latency: on a fresh rig of each server in turn (Keyscope, then the peer, at each rate), the producer \
                writes at the paced rate for 4 s (clock_nanosleep to each due time); each title starts with the \
                monotonic time of its set (clock_gettime(CLOCK_MONOTONIC), ns); the client takes the time when a \
                message is complete, parses it, and records receipt − stamp for every entry.
                """)
        }
        if !setResults.isEmpty {
            paragraphs.append(
                """
                Set cost: the Harness (\(setRounds) interleaved rounds of about 80 ms, median and minimum) times the \
                same loop of sets on two stores: one registered in a registry nothing observes, and one whose registry \
                an InspectorHub (default log bounds) observes while the InspectorServer streams every change to one \
                connected client that parses everything. Rows marked "writer's CPU time" time the same loops by the \
                writing thread's CPU time (CLOCK_THREAD_CPUTIME_ID) instead of the wall clock: the hub's own work on \
                the write path, without the time the server's and the client's threads took the core away. After each \
                inspected round the harness waits, untimed, until the client has caught up. Gaps that client saw: \
                \(setGaps).
                """)
        }
        paragraphs.append(
            """
            Machine: \(ProcessInfo.processInfo.activeProcessorCount) cores shared by the producer, the server's \
            thread(s) and the clients. Inspector section: \
            \(String(format: "%.1f", Harness.nanoseconds(elapsed) / 1e9)) s.
            """)
        return paragraphs.joined(separator: "\n")
    }

    private func rate(_ value: Double) -> String {
        value >= 1e6
            ? String(format: "%.2fM", value / 1e6)
            : value >= 1e4
                ? String(format: "%.0fk", value / 1e3)
                : String(format: "%.0f", value)
    }

    private func micro(_ nanoseconds: UInt64) -> String {
        let value = Double(nanoseconds) / 1e3
        return value >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
    }
}
