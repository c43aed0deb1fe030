import Foundation

/// The inspector's figures: push throughput (1 and 10 parsing clients, a client that does not parse, and the
/// Hummingbird peer), push latency at paced rates, and what an inspector costs a `set`. Returns the report text.
///
/// ```swift
/// print(try InspectorBenchmarks.run { note in log(note) })
/// ```
enum InspectorBenchmarks {
    /// The parts, in the order they run: `push`, `latency`, `set-cost`.
    static let parts = ["push", "latency", "set-cost"]
    static let rounds = 5
    static let changesOneClient = 500_000
    static let changesTenClients = 50_000

    static func run(_ selected: Set<String>, progress: @escaping (String) -> Void) throws -> String {
        let workload = PushWorkload()
        let started = ContinuousClock.now
        var report = InspectorReport()

        if selected.contains("push") {
            let keyscopeOne = PushScenario(
                name: "Keyscope → 1 client (parses)", kind: .keyscope, clients: 1, mode: .parse,
                changes: changesOneClient)
            let peerOne = PushScenario(
                name: "Hummingbird peer → 1 client (parses)", kind: .hummingbird, clients: 1, mode: .parse,
                changes: changesOneClient)
            let keyscopeTen = PushScenario(
                name: "Keyscope → 10 clients (parse; slowest)", kind: .keyscope, clients: 10, mode: .parse,
                changes: changesTenClients)
            let keyscopeSkim = PushScenario(
                name: "Keyscope → 1 client (does not parse)", kind: .keyscope, clients: 1, mode: .skim,
                changes: changesOneClient)
            let keyscopeBatched = PushScenario(
                name: "Keyscope → 1 client (parses), 10-set transactions", kind: .keyscope, clients: 1, mode: .parse,
                changes: changesOneClient / 10, patchesPerChange: 10)
            let peerBatched = PushScenario(
                name: "Hummingbird peer → 1 client (parses), 10-set transactions", kind: .hummingbird, clients: 1,
                mode: .parse, changes: changesOneClient / 10, patchesPerChange: 10)
            let keyscopeScan = PushScenario(
                name: "Keyscope → 1 client (scans)", kind: .keyscope, clients: 1, mode: .scan,
                changes: changesOneClient)
            let peerScan = PushScenario(
                name: "Hummingbird peer → 1 client (scans)", kind: .hummingbird, clients: 1, mode: .scan,
                changes: changesOneClient)
            let keyscopeScanBatched = PushScenario(
                name: "Keyscope → 1 client (scans), 10-set transactions", kind: .keyscope, clients: 1, mode: .scan,
                changes: changesOneClient / 10, patchesPerChange: 10)
            let peerScanBatched = PushScenario(
                name: "Hummingbird peer → 1 client (scans), 10-set transactions", kind: .hummingbird, clients: 1,
                mode: .scan, changes: changesOneClient / 10, patchesPerChange: 10)
            var keyscopeCatchUp = PushScenario(
                name: "Keyscope → 1 client (scans), catch-up of a written log", kind: .keyscope, clients: 1,
                mode: .scan, changes: changesOneClient)
            keyscopeCatchUp.backlog = true
            var keyscopeCatchUpBatched = PushScenario(
                name: "Keyscope → 1 client (scans), catch-up, 10-set transactions", kind: .keyscope, clients: 1,
                mode: .scan, changes: changesOneClient / 10, patchesPerChange: 10)
            keyscopeCatchUpBatched.backlog = true
            report.push = try PushBenchmarks.run(
                [
                    keyscopeOne, peerOne, keyscopeTen, keyscopeSkim, keyscopeBatched, peerBatched, keyscopeScan,
                    peerScan, keyscopeScanBatched, peerScanBatched, keyscopeCatchUp, keyscopeCatchUpBatched,
                ], rounds: rounds,
                workload: workload,
                progress: progress)
            report.keyscope = keyscopeOne.name
            report.peer = peerOne.name
        }
        if selected.contains("latency") {
            report.latencies = try [1_000, 10_000].map { rate in
                let sample = try PushBenchmarks.latency(rate: rate, seconds: 4, workload: workload)
                progress("latency at \(rate)/s: p50 \(sample.p50 / 1000) µs, p99 \(sample.p99 / 1000) µs")
                return sample
            }
        }
        if selected.contains("set-cost") {
            let setCost = try InspectedSetBenchmarks(workload: workload)
            let harness = Harness()
            report.setResults = try harness.run(setCost.all) { progress("set cost: \($0)") }
            report.setRounds = harness.rounds
            setCost.stop()
            report.setGaps = setCost.gaps
        }
        report.elapsed = ContinuousClock.now - started
        return report.text
    }
}
