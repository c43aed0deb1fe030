import Foundation
import KeyscopeTesting

/// The backend section (`keyscope-bench backend`): backend storage on Redis (docs/fleet.md, docs/fleet.md) against a
/// redis-server of its own, started on a free loopback port in a temporary folder and stopped by pid at the end:
/// sync latency between two instances at 1k changes/s beside Redis's own stream latency at that rate, and the cost
/// of a `set` on a Redis-backed store beside the same `set` on a memory store.
///
/// ```swift
/// let report = try BackendBenchmarks.run { note in log(note) }
/// print(report.text)
/// ```
struct BackendBenchmarks {
    static let rate = 1_000
    static let seconds = 4.0

    var sync: LatencySample
    /// The same with the pushers' coalescing off (`pushCoalescing` 0): what the default's 2 ms costs.
    var uncoalesced: LatencySample
    var peer: LatencySample
    var setResults: [BenchmarkResult]
    var setRounds: Int
    /// A set on an inspected store with fleet publishing beside one without (FleetSetBenchmarks).
    var fleetResults: [BenchmarkResult]
    var elapsed: Duration

    static func run(progress: @escaping (String) -> Void) throws -> BackendBenchmarks {
        let started = ContinuousClock.now
        let redis = try RedisTestServer()
        defer { redis.stop() }
        progress("backend: redis-server on port \(redis.port), pid \(redis.pid.map(String.init) ?? "?")")
        let sync = try BackendLatency.sync(url: redis.url, rate: rate, seconds: seconds)
        progress("backend: sync latency p50 \(sync.p50 / 1000) µs, p99 \(sync.p99 / 1000) µs")
        let uncoalesced = try BackendLatency.sync(url: redis.url, rate: rate, seconds: seconds, coalescing: .zero)
        progress("backend: without coalescing p50 \(uncoalesced.p50 / 1000) µs, p99 \(uncoalesced.p99 / 1000) µs")
        let peer = try BackendLatency.streamPeer(url: redis.url, rate: rate, seconds: seconds)
        progress("backend: Redis stream p50 \(peer.p50 / 1000) µs, p99 \(peer.p99 / 1000) µs")
        let harness = Harness()
        let results = try { () throws -> [BenchmarkResult] in
            let setCost = try BackendSetBenchmarks(redisURL: redis.url)
            return try harness.run(setCost.all) { progress("backend set cost: \($0)") }
        }()
        let fleetResults = try { () throws -> [BenchmarkResult] in
            let fleetCost = try FleetSetBenchmarks(redisURL: redis.url)
            defer { fleetCost.stop() }
            return try harness.run(fleetCost.all) { progress("fleet set cost: \($0)") }
        }()
        // The stores are released, and their sync threads end with them; give the readers their blocking read's
        // time to notice before Redis goes away, so that they do not report it as lost.
        Thread.sleep(forTimeInterval: 1.5)
        return BackendBenchmarks(
            sync: sync, uncoalesced: uncoalesced, peer: peer, setResults: results, setRounds: harness.rounds,
            fleetResults: fleetResults,
            elapsed: ContinuousClock.now - started)
    }

    var text: String {
        let latency = Report.grid(
            ["instance → instance", "rate", "samples", "p50 µs", "p99 µs", "p99.9 µs", "max µs"],
            [
                ("RedisBackend A → B", sync), ("RedisBackend A → B, no push coalescing", uncoalesced),
                ("Redis stream XADD → XREAD (peer)", peer),
            ].map { name, sample in
                [
                    name, "\(sample.rate)/s", "\(sample.samples)", micro(sample.p50), micro(sample.p99),
                    micro(sample.p999), micro(sample.max),
                ]
            })
        let sets = Report.grid(
            ["benchmark", "ns/op median", "min", "÷ memory store"],
            setResults.map { result in
                let peer = BackendSetBenchmarks.pairs.first { $0.0 == result.name }.flatMap { pair in
                    setResults.first { $0.name == pair.1 }
                }
                return [
                    result.name, Report.number(result.median), Report.number(result.minimum),
                    peer.map { Report.ratio(result.median / $0.median) } ?? "—",
                ]
            })
        let fleetSets = Report.grid(
            ["benchmark", "ns/op median", "min", "÷ inspected"],
            fleetResults.map { result in
                let peer = FleetSetBenchmarks.pairs.first { $0.0 == result.name }.flatMap { pair in
                    fleetResults.first { $0.name == pair.1 }
                }
                return [
                    result.name, Report.number(result.median), Report.number(result.minimum),
                    peer.map { Report.ratio(result.median / $0.median) } ?? "—",
                ]
            })
        return """
            Backend storage on Redis: sync latency between two instances (set on A → change applied on B)
            \(latency)

            What a Redis-backed store costs a set (same set, rounds interleaved with a memory store's)
            \(sets)

            What joining a fleet costs a set (an inspected store whose hub also publishes to Redis, beside one that \
            does not; after each fleet round the publisher is waited for, untimed)
            \(fleetSets)

            Two RedisBackend instances (each with its own registry, factory, pusher and reader connections) share \
            one namespace on a redis-server started for this run on loopback. A writes \(Self.rate) changes/s for \
            \(Int(Self.seconds)) s, each a top-level key set to its send time; B's observer records when it applies \
            each one, with the default 2 ms push coalescing and then with none. The peer writes stream entries of the same shape at the \
            same rate with XADD and reads them with XREAD BLOCK on another connection: Redis's own floor. Set-cost \
            rows are medians of \(setRounds) interleaved rounds; after each Redis-backed round the harness waits, \
            untimed, for its pushes. Whole section: \(String(format: "%.1f", Harness.nanoseconds(elapsed) / 1e9)) s.
            """
    }

    /// The section's figures for the summary table.
    var resultsFile: ResultsFile {
        var figures: [ReportFigure] = []
        let peerName = "Redis stream XADD → XREAD BLOCK, same rate"
        for (label, sample) in [("", sync), (", no push coalescing", uncoalesced)] {
            for (percentile, own, other) in [("p50", sample.p50, peer.p50), ("p99", sample.p99, peer.p99)] {
                figures.append(
                    ReportFigure(
                        "sync \(percentile) at \(Self.rate / 1000)k changes/s\(label)", Double(own) / 1e3,
                        unit: "µs", better: .lower, peer: peerName, peerValue: Double(other) / 1e3))
            }
        }
        for (name, peerName) in BackendSetBenchmarks.pairs {
            guard let own = setResults.first(where: { $0.name == name }),
                let peer = setResults.first(where: { $0.name == peerName })
            else { continue }
            figures.append(
                ReportFigure(name, own.median, unit: "ns", better: .lower, peer: peerName, peerValue: peer.median))
        }
        for (name, peerName) in FleetSetBenchmarks.pairs {
            guard let own = fleetResults.first(where: { $0.name == name }),
                let peer = fleetResults.first(where: { $0.name == peerName })
            else { continue }
            figures.append(
                ReportFigure(name, own.median, unit: "ns", better: .lower, peer: peerName, peerValue: peer.median))
        }
        return ResultsFile(
            part: "backend",
            title: "Redis (sync between two instances; set cost ÷ memory store; fleet publishing ÷ inspected)",
            command: ResultsFile.keyscopeBenchCommand("backend"), seconds: Harness.nanoseconds(elapsed) / 1e9,
            figures: figures)
    }

    private func micro(_ nanoseconds: UInt64) -> String { String(format: "%.0f", Double(nanoseconds) / 1e3) }
}
