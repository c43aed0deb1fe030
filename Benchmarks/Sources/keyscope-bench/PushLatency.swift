import KeyscopeInspector
import Synchronization

/// Push latency on either server: one client parses every message and times every entry, while the producer writes
/// at a paced rate. The Keyscope server and the Hummingbird peer are measured the same way, so that the report can
/// set one beside the other.
///
/// ```swift
/// let sample = try PushLatency.measure(.hummingbird, rate: 1_000, seconds: 4, workload: PushWorkload())
/// print(sample.p50, sample.p99)   // nanoseconds
/// ```
enum PushLatency {
    /// Writes `rate` changes a second for `seconds` (each title stamped with its send time) into a fresh rig of
    /// `kind`, and returns the percentiles of receipt − stamp over every entry.
    static func measure(_ kind: PushServerKind, rate: Int, seconds: Double, workload: PushWorkload) throws
        -> LatencySample
    {
        let rig = try PushRig(kind, workload: workload)
        defer { rig.stop() }
        let client = try rig.connect(1, mode: .parseTimed)[0]
        let count = Int(Double(rate) * seconds)
        client.target.store(rig.hub.lastSeq + count, ordering: .sequentiallyConsistent)
        let elapsed = workload.producePaced(rate: rate, count: count, into: rig.store)
        guard client.waitUntilFinished() else {
            throw BenchError(
                "latency at \(rate)/s (\(kind.rawValue)): the client did not get every change: "
                    + (client.failure.map { "\($0)" } ?? "time-out"))
        }
        let sorted = client.latencies.sorted()
        guard let slowest = sorted.last else {
            throw BenchError("latency at \(rate)/s (\(kind.rawValue)): no entry carried a send stamp")
        }
        func percentile(_ p: Double) -> UInt64 { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        return LatencySample(
            rate: rate, achievedRate: Double(count) / (Harness.nanoseconds(elapsed) / 1e9), samples: sorted.count,
            p50: percentile(0.5), p99: percentile(0.99), p999: percentile(0.999), max: slowest)
    }
}
