import Foundation
import KeyscopeCore
import KeyscopeInspector
import Synchronization

/// What an inspector costs a write: the same `set`s timed on a store nobody inspects and on one whose registry an
/// ``InspectorHub`` observes while an ``InspectorServer`` streams every change to one connected client that parses
/// it all. Both stores are the push workload's; the harness interleaves the rounds so they run side by side.
///
/// ```swift
/// let benchmarks = try InspectedSetBenchmarks(workload: PushWorkload())
/// let results = try Harness().run(benchmarks.all)
/// benchmarks.stop()
/// ```
final class InspectedSetBenchmarks {
    /// A store and how far its writes got; only the benchmark thread (the main thread) touches it.
    private final class Writer {
        let store: KeyValueStore
        /// How many title and total writes were made so far: each round goes on where the last one stopped, so
        /// every write is a real change (a title takes the other of the two titles, the total the other value).
        var titleWrites = 0
        var totalWrites = 0

        init(store: KeyValueStore) { self.store = store }
    }

    static let titleBare = "set items[i].title (60 chars), no inspector"
    static let titleInspected = "set items[i].title (60 chars), inspected"
    static let totalBare = "set cart.total (integer), no inspector"
    static let totalInspected = "set cart.total (integer), inspected"
    static let titleBareCPU = "set items[i].title, no inspector, writer's CPU time"
    static let titleInspectedCPU = "set items[i].title, inspected, writer's CPU time"
    /// Each inspected row and the bare row it is compared with.
    static let pairs = [(titleInspected, titleBare), (totalInspected, totalBare), (titleInspectedCPU, titleBareCPU)]

    private let workload: PushWorkload
    private let bareRegistry = StoreRegistry()
    private let bare: Writer
    private let inspected: Writer
    private let rig: PushRig
    let client: BenchClient
    private let totalPath = try! StoreKeyPath(parsing: "cart.total")
    private let totals: [StoreValue] = [.integer(90), .integer(100)]

    /// Starts the inspected side (hub with the default log bounds, server, one parsing client); the bare store is
    /// registered in a registry that nothing observes.
    init(workload: PushWorkload) throws {
        self.workload = workload
        let store = workload.makeStore()
        try bareRegistry.register(store)
        bare = Writer(store: store)
        rig = try PushRig(.keyscope, workload: workload, hubOptions: HubOptions())
        inspected = Writer(store: rig.store)
        client = try rig.connect(1, mode: .parse)[0]
    }

    /// Stops the server (its client is closed and ends) and unregisters both stores.
    func stop() {
        rig.stop()
        _ = client.waitUntilFinished(timeout: 5)
        bareRegistry.unregister(bare.store.id)
    }

    var all: [Benchmark] {
        [
            titles(Self.titleBare, bare, inspected: false), titles(Self.titleInspected, inspected, inspected: true),
            totals(Self.totalBare, bare, inspected: false), totals(Self.totalInspected, inspected, inspected: true),
            titles(Self.titleBareCPU, bare, inspected: false, cpuTime: true),
            titles(Self.titleInspectedCPU, inspected, inspected: true, cpuTime: true),
        ]
    }

    /// Gaps the client saw (it falls off the log's tail only if it is 100,000 entries behind); read after ``stop()``.
    var gaps: Int { client.gaps }

    /// Title writes, timed by the wall clock, or with `cpuTime` by the CPU time of the writing thread (which leaves
    /// out the time the other threads of the inspector took the core from it).
    private func titles(_ name: String, _ writer: Writer, inspected: Bool, cpuTime: Bool = false) -> Benchmark {
        let paths = workload.paths
        let titles = workload.titles
        return Benchmark(name) { [self] iterations in
            let store = writer.store
            let first = writer.titleWrites
            let cpuStart = threadCPUNanoseconds()
            var elapsed = ContinuousClock().measure {
                for k in first..<(first + iterations) {
                    blackhole(store.set(paths[k % PushWorkload.itemCount], titles[(k / PushWorkload.itemCount) & 1]))
                }
            }
            if cpuTime { elapsed = .nanoseconds(Int64(threadCPUNanoseconds() - cpuStart)) }
            writer.titleWrites += iterations
            if inspected { try catchUp() }
            return elapsed
        }
    }

    private func totals(_ name: String, _ writer: Writer, inspected: Bool) -> Benchmark {
        Benchmark(name) { [self] iterations in
            let store = writer.store
            let path = totalPath
            let values = totals
            let first = writer.totalWrites
            let elapsed = ContinuousClock().measure {
                for k in first..<(first + iterations) { blackhole(store.set(path, values[k & 1])) }
            }
            writer.totalWrites += iterations
            if inspected { try catchUp() }
            return elapsed
        }
    }

    /// Waits (untimed) until the client has everything the hub logged, so that no round pays for the last one's
    /// stream.
    private func catchUp() throws {
        let last = rig.hub.lastSeq
        let deadline = monotonicNanoseconds() + 30_000_000_000
        while client.received.load(ordering: .relaxed) < last {
            guard monotonicNanoseconds() < deadline else {
                throw BenchError("the inspected store's client did not catch up within 30 s (did it fail?)")
            }
            usleep(200)
        }
    }
}
