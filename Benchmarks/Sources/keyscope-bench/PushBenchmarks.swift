import Foundation
import KeyscopeInspector
import Synchronization

/// One push scenario: which server, how many clients, what they do with each message, how many changes.
struct PushScenario {
    let name: String
    let kind: PushServerKind
    let clients: Int
    let mode: BenchClient.Mode
    let changes: Int
    /// Patches per change: 1 is one `set` per change; more is a transaction of that many `set`s (one log entry).
    var patchesPerChange = 1
    /// Catch-up: the changes are all written first, then the clients connect resuming after the seq before them and
    /// read the whole backlog: the server's and the client's pace without a producer on the cores (Keyscope only:
    /// the peer does not resume).
    var backlog = false
}

/// What one push run measured.
struct PushSample {
    /// Patches per second delivered to the slowest client: changes × patches per change ÷ (its receipt of the last
    /// seq − producer start).
    var delivered: Double
    /// Changes per second the producer wrote (its own loop's time).
    var produced: Double
    /// Entries per `changes` message, on average over the clients.
    var entriesPerMessage: Double
    /// Payload of `changes` messages per client per second, MB (10^6 bytes).
    var megabytesPerSecond: Double
    /// How many entries the slowest client was behind when the producer finished.
    var behindAtProducerEnd: Int
    /// CPU time per patch of the server's threads (the process's CPU time from producer start to the last
    /// client's end, less the producer's and the clients' threads): reading the cursor, encoding the lines (once
    /// per entry), framing and writing to every client.
    var serverMicrosecondsPerPatch: Double
    /// CPU time per received patch of the clients' threads (reading and parsing).
    var clientMicrosecondsPerPatch: Double
    var lineBytes: Int
    var patchBytes: Int
}

/// The latency figures of one paced run.
struct LatencySample {
    let rate: Int
    let achievedRate: Double
    let samples: Int
    /// Nanoseconds.
    let p50: UInt64
    let p99: UInt64
    let p999: UInt64
    let max: UInt64
}

/// The end-to-end push measurements: a producer writes through the public store API, clients on loopback read.
enum PushBenchmarks {
    /// Sets up a fresh rig, connects the clients, writes `changes` changes as fast as possible from this thread,
    /// and waits until every client has received the last seq.
    static func measure(_ scenario: PushScenario, workload: PushWorkload) throws -> PushSample {
        if scenario.backlog { return try measureCatchUp(scenario, workload: workload) }
        let rig = try PushRig(scenario.kind, workload: workload)
        defer { rig.stop() }
        let clients = try rig.connect(scenario.clients, mode: scenario.mode)
        let first = rig.hub.lastSeq
        let target = first + scenario.changes
        for client in clients { client.target.store(target, ordering: .sequentiallyConsistent) }

        let processStart = processCPUNanoseconds()
        let producerStart = threadCPUNanoseconds()
        let start = monotonicNanoseconds()
        let producerTime = workload.produce(
            scenario.changes, patchesPerChange: scenario.patchesPerChange, into: rig.store)
        let producerCPU = threadCPUNanoseconds() - producerStart
        let slowestNow = clients.map { $0.received.load(ordering: .relaxed) }.min() ?? target
        return try sample(
            scenario, rig: rig, clients: clients, first: first,
            timing: Timing(
                start: start, processStart: processStart, producerCPU: producerCPU, producerTime: producerTime,
                behind: target - slowestNow))
    }

    /// Writes every change first, then times clients that resume after the first seq until they have the last.
    private static func measureCatchUp(_ scenario: PushScenario, workload: PushWorkload) throws -> PushSample {
        let rig = try PushRig(scenario.kind, workload: workload)
        defer { rig.stop() }
        let first = rig.hub.lastSeq
        let target = first + scenario.changes
        let producerTime = workload.produce(
            scenario.changes, patchesPerChange: scenario.patchesPerChange, into: rig.store)
        let processStart = processCPUNanoseconds()
        let start = monotonicNanoseconds()
        let clients = try rig.connect(scenario.clients, mode: scenario.mode, resumingAfter: first, target: target)
        return try sample(
            scenario, rig: rig, clients: clients, first: first,
            timing: Timing(
                start: start, processStart: processStart, producerCPU: 0, producerTime: producerTime,
                behind: scenario.changes))
    }

    /// When a run started, in the clocks its sample needs, and how far behind the slowest client was when the
    /// producer finished.
    private struct Timing {
        let start: UInt64
        let processStart: UInt64
        /// The producer thread's CPU time within the timed part (0 when it wrote before).
        let producerCPU: UInt64
        let producerTime: Duration
        let behind: Int
    }

    /// Checks that the hub logged one entry per change, waits until every client has the run's last seq, checks that
    /// each got every entry without a gap, and computes the sample.
    private static func sample(
        _ scenario: PushScenario, rig: PushRig, clients: [BenchClient], first: Int, timing: Timing
    ) throws -> PushSample {
        let target = first + scenario.changes
        guard rig.hub.lastSeq == target else {
            throw BenchError(
                "\(scenario.name): the hub logged \(rig.hub.lastSeq - first) entries for \(scenario.changes) changes")
        }
        for client in clients where !client.waitUntilFinished() {
            throw BenchError(
                "\(scenario.name): a client did not get seq \(target): \(client.failure.map { "\($0)" } ?? "time-out")")
        }
        // The log holds the whole run, so every client must get every entry, without a gap.
        if let odd = clients.first(where: { $0.gaps > 0 || (scenario.mode != .skim && $0.entries != scenario.changes) })
        {
            throw BenchError(
                "\(scenario.name): a client counted \(odd.entries) entries and \(odd.gaps) gaps for \(scenario.changes) changes"
            )
        }
        let processCPU = processCPUNanoseconds() - timing.processStart
        let clientsCPU = clients.reduce(0) { $0 + $1.cpuNanoseconds }
        let serverCPU = Double(processCPU) - Double(timing.producerCPU) - Double(clientsCPU)
        let seconds = Double(clients.map(\.finishedAt).max()! - timing.start) / 1e9
        let messages = clients.reduce(0) { $0 + $1.changesMessages }
        let bytes = clients.reduce(0) { $0 + $1.changesBytes }
        let sizes = rig.lineAndPatchBytes(after: first)
        let patches = Double(scenario.changes * scenario.patchesPerChange)
        return PushSample(
            delivered: patches / seconds,
            produced: patches / (Harness.nanoseconds(timing.producerTime) / 1e9),
            entriesPerMessage: Double(scenario.changes * clients.count) / Double(max(messages, 1)),
            megabytesPerSecond: Double(bytes) / Double(clients.count) / seconds / 1e6,
            behindAtProducerEnd: timing.behind,
            serverMicrosecondsPerPatch: serverCPU / 1e3 / patches,
            clientMicrosecondsPerPatch: Double(clientsCPU) / 1e3 / (patches * Double(clients.count)),
            lineBytes: sizes.line, patchBytes: sizes.patch)
    }

    /// Runs every scenario `rounds` times, interleaved (round 1 of each, then round 2…), and keeps each scenario's
    /// median run by delivered rate.
    static func run(_ scenarios: [PushScenario], rounds: Int, workload: PushWorkload, progress: (String) -> Void)
        throws -> [(scenario: PushScenario, median: PushSample, all: [PushSample])]
    {
        // PUSH_ONLY=TEXT runs only the scenarios whose name contains TEXT (to profile one).
        let only = ProcessInfo.processInfo.environment["PUSH_ONLY"]
        let scenarios = scenarios.filter { scenario in only.map { scenario.name.contains($0) } ?? true }
        var samples = Array(repeating: [PushSample](), count: scenarios.count)
        for round in 1...rounds {
            for (index, scenario) in scenarios.enumerated() {
                let sample = try measure(scenario, workload: workload)
                samples[index].append(sample)
                progress(
                    "push round \(round)/\(rounds), \(scenario.name): \(Int(sample.delivered)) patches/s delivered, "
                        + "producer \(Int(sample.produced))/s")
            }
        }
        return scenarios.indices.map { index in
            let sorted = samples[index].sorted { $0.delivered < $1.delivered }
            return (scenarios[index], sorted[sorted.count / 2], samples[index])
        }
    }
}
