import Foundation

/// The inspector's figures: push throughput (1 and 10 clients that parse every message whole with jansson, a client
/// that scans every message with a validating streaming parser (``JSONScanner``), a client that does not parse; the
/// one-client live shapes beside the Hummingbird peer, which feeds one client at a time; and catch-up runs, where a
/// scanning client reads a log written before it connected, with no producer running while it is timed and no peer
/// run, since the peer cannot resume), push latency at paced rates on both servers, and what an inspector costs a
/// `set`. Returns the report, whose text is printed and whose figures go to the results folder.
///
/// ```swift
/// let report = try InspectorBenchmarks.run(["push"]) { note in log(note) }
/// print(report.text)
/// ```
enum InspectorBenchmarks {
    /// The parts, in the order they run: `push`, `latency`, `set-cost`.
    static let parts = ["push", "latency", "set-cost"]
    static let rounds = 5
    static let changesOneClient = 500_000
    static let changesTenClients = 50_000

    /// The push scenarios' shapes, in the order they run: each runs on Keyscope (`Keyscope → SHAPE`) and, where
    /// `peer` is set, right after it on the Hummingbird peer (`Hummingbird peer → SHAPE`). One client gets
    /// `changesOneClient` patches (in changes of `patches` sets each), ten clients `changesTenClients` changes.
    private static let pushShapes:
        [(shape: String, clients: Int, mode: BenchClient.Mode, patches: Int, catchUp: Bool, peer: Bool)] = [
            ("1 client (parses)", 1, .parse, 1, false, true),
            ("10 clients (parse; slowest)", 10, .parse, 1, false, false),
            ("1 client (does not parse)", 1, .skim, 1, false, true),
            ("1 client (parses), 10-set transactions", 1, .parse, 10, false, true),
            ("1 client (scans)", 1, .scan, 1, false, true),
            ("1 client (scans), 10-set transactions", 1, .scan, 10, false, true),
            ("1 client (scans), catch-up of a written log", 1, .scan, 1, true, false),
            ("1 client (scans), catch-up, 10-set transactions", 1, .scan, 10, true, false),
        ]

    /// Every push scenario of ``pushShapes``, Keyscope's and the peer's, in the order they run.
    private static var pushScenarios: [PushScenario] {
        pushShapes.flatMap { shape in
            let changes = shape.clients > 1 ? changesTenClients : changesOneClient / shape.patches
            let kinds: [(PushServerKind, String)] =
                [(.keyscope, "Keyscope")] + (shape.peer ? [(.hummingbird, "Hummingbird peer")] : [])
            return kinds.map { kind, server in
                PushScenario(
                    name: "\(server) → \(shape.shape)", kind: kind, clients: shape.clients, mode: shape.mode,
                    changes: changes, patchesPerChange: shape.patches, backlog: shape.catchUp)
            }
        }
    }

    static func run(_ selected: Set<String>, progress: @escaping (String) -> Void) throws -> InspectorReport {
        let workload = PushWorkload()
        let started = ContinuousClock.now
        var report = InspectorReport()

        if selected.contains("push") {
            let partStart = ContinuousClock.now
            report.push = try PushBenchmarks.run(pushScenarios, rounds: rounds, workload: workload, progress: progress)
            report.partSeconds["push"] = Harness.nanoseconds(ContinuousClock.now - partStart) / 1e9
        }
        if selected.contains("latency") {
            let partStart = ContinuousClock.now
            for rate in [1_000, 10_000] {
                for kind in [PushServerKind.keyscope, .hummingbird] {
                    let sample = try PushLatency.measure(kind, rate: rate, seconds: 4, workload: workload)
                    progress(
                        "latency at \(rate)/s, \(kind.rawValue): p50 \(sample.p50 / 1000) µs, "
                            + "p99 \(sample.p99 / 1000) µs")
                    report.latencies.append((kind, sample))
                }
            }
            report.partSeconds["latency"] = Harness.nanoseconds(ContinuousClock.now - partStart) / 1e9
        }
        if selected.contains("set-cost") {
            let partStart = ContinuousClock.now
            let setCost = try InspectedSetBenchmarks(workload: workload)
            let harness = Harness()
            report.setResults = try harness.run(setCost.all) { progress("set cost: \($0)") }
            report.setRounds = harness.rounds
            setCost.stop()
            report.setGaps = setCost.gaps
            report.partSeconds["set-cost"] = Harness.nanoseconds(ContinuousClock.now - partStart) / 1e9
        }
        report.elapsed = ContinuousClock.now - started
        return report
    }
}
