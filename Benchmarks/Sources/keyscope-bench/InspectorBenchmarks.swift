import Foundation

/// The inspector's figures: push throughput (1 and 10 parsing clients, a client that does not parse; the one-client
/// shapes beside the Hummingbird peer, which feeds one client at a time), push latency at paced rates on both
/// servers, and what an inspector costs a `set`. Returns the report, whose text is printed and whose figures go to the
/// results folder.
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

    static func run(_ selected: Set<String>, progress: @escaping (String) -> Void) throws -> InspectorReport {
        let workload = PushWorkload()
        let started = ContinuousClock.now
        var report = InspectorReport()

        if selected.contains("push") {
            let partStart = ContinuousClock.now
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
            let peerSkim = PushScenario(
                name: "Hummingbird peer → 1 client (does not parse)", kind: .hummingbird, clients: 1, mode: .skim,
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
                    keyscopeOne, peerOne, keyscopeTen, keyscopeSkim, peerSkim, keyscopeBatched, peerBatched,
                    keyscopeScan, peerScan, keyscopeScanBatched, peerScanBatched, keyscopeCatchUp,
                    keyscopeCatchUpBatched,
                ], rounds: rounds,
                workload: workload,
                progress: progress)
            report.keyscope = keyscopeOne.name
            report.peer = peerOne.name
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
