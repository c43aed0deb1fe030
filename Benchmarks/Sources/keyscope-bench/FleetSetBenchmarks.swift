import Foundation
import KeyscopeCore
import KeyscopeFleet
import KeyscopeInspector

/// What joining a fleet costs a write (docs/fleet.md): the same `set`s on two inspected stores, each observed by a
/// hub of its own, one of them also a fleet member whose publisher reads the hub's log and sends it to Redis (its
/// thread and redis-server at work beside the writer). The harness interleaves their rounds; after each fleet round
/// the publisher is waited for, untimed, so that no round pays for the last one's publishing.
final class FleetSetBenchmarks {
    private final class Writer {
        let store: KeyValueStore
        var writes = 0
        init(store: KeyValueStore) { self.store = store }
    }

    static let inspected = "set items[i].title, inspected"
    static let fleet = "set items[i].title, inspected + fleet publishing"
    static let inspectedCPU = "set items[i].title, inspected, writer's CPU time"
    static let fleetCPU = "set items[i].title, inspected + fleet publishing, writer's CPU time"
    /// Each fleet row and the row it is compared with.
    static let pairs = [(fleet, inspected), (fleetCPU, inspectedCPU)]

    private let workload = PushWorkload()
    private let plainHub: InspectorHub
    private let fleetHub: InspectorHub
    private let member: FleetMember
    private let plain: Writer
    private let publishing: Writer

    init(redisURL: String) throws {
        let plainRegistry = StoreRegistry()
        let fleetRegistry = StoreRegistry()
        plain = Writer(store: workload.makeStore())
        publishing = Writer(store: workload.makeStore())
        try plainRegistry.register(plain.store)
        try fleetRegistry.register(publishing.store)
        member = FleetMember(try FleetOptions(redis: redisURL, fleet: "bench", instance: "set-cost", name: "bench"))
        plainHub = InspectorHub(registry: plainRegistry)
        fleetHub = InspectorHub(registry: fleetRegistry, features: [member])
        plainHub.start()
        fleetHub.start()
        try waitForPublisher()
    }

    func stop() {
        member.leave()
        plainHub.stop()
        fleetHub.stop()
    }

    var all: [Benchmark] {
        [
            sets(Self.inspected, plain), sets(Self.fleet, publishing, fleet: true),
            sets(Self.inspectedCPU, plain, cpuTime: true), sets(Self.fleetCPU, publishing, fleet: true, cpuTime: true),
        ]
    }

    private func sets(_ name: String, _ writer: Writer, fleet: Bool = false, cpuTime: Bool = false) -> Benchmark {
        let paths = workload.paths
        let titles = workload.titles
        return Benchmark(name) { [self] iterations in
            let store = writer.store
            let first = writer.writes
            let cpuStart = threadCPUNanoseconds()
            var elapsed = ContinuousClock().measure {
                for k in first..<(first + iterations) {
                    blackhole(store.set(paths[k % PushWorkload.itemCount], titles[(k / PushWorkload.itemCount) & 1]))
                }
            }
            if cpuTime { elapsed = .nanoseconds(Int64(threadCPUNanoseconds() - cpuStart)) }
            writer.writes += iterations
            if fleet { try waitForPublisher() }
            return elapsed
        }
    }

    /// Waits (untimed) until the member has published everything its hub logged.
    private func waitForPublisher() throws {
        let last = fleetHub.lastSeq
        let deadline = monotonicNanoseconds() + 30_000_000_000
        while member.publishedSeq < last {
            guard monotonicNanoseconds() < deadline else {
                throw BenchError("the fleet member did not publish up to seq \(last) within 30 s (is Redis up?)")
            }
            usleep(200)
        }
    }
}
