import Foundation
import KeyscopeCore
import KeyscopeRedis
import KeyscopeTesting

/// What a backend store in Redis costs a write: the same `set`s timed on a memory store (the peer), on a store synced
/// with Redis (its pusher and reader threads at work beside the writer, redis-server on the same machine), and on one
/// whose Redis is unreachable (the seam's own cost: nothing is pushed). The harness interleaves their rounds.
///
/// ```swift
/// let benchmarks = try BackendSetBenchmarks(redisURL: server.url)
/// let results = try Harness().run(benchmarks.all)
/// ```
final class BackendSetBenchmarks {
    /// A store and how far its writes got; only the benchmark thread (the main thread) touches it.
    private final class Writer {
        let store: KeyValueStore
        /// Writes made so far: each round goes on where the last stopped, so every write is a real change.
        var writes = 0

        init(store: KeyValueStore) { self.store = store }
    }

    static let memory = "set limits.cart (integer), memory store"
    static let redis = "set limits.cart (integer), Redis-backed"
    static let unreachable = "set limits.cart (integer), Redis-backed, Redis down"
    static let memoryCPU = "set limits.cart, memory store, writer's CPU time"
    static let redisCPU = "set limits.cart, Redis-backed, writer's CPU time"
    /// Each Redis row and the memory row it is compared with.
    static let pairs = [(redis, memory), (redisCPU, memoryCPU), (unreachable, memory)]

    /// A small settings document: what a backend store typically holds.
    static let document: [String: StoreValue] = [
        "flags": .object(
            Dictionary(uniqueKeysWithValues: (0..<8).map { ("feature\($0)", StoreValue.bool($0.isMultiple(of: 2))) })),
        "banner": "Free shipping over $50",
        "limits": ["cart": 20, "rate": 1.5],
    ]

    private let memoryWriter: Writer
    private let redisWriter: Writer
    private let unreachableWriter: Writer
    /// The stores' registries, kept as a service keeps its factory's (or the shared one): a store whose registry is
    /// gone is heard by nobody and skips making its changes, which no store of a running service does.
    private let registries: [StoreRegistry]
    private let path = try! StoreKeyPath(parsing: "limits.cart")
    private let values: [StoreValue] = [.integer(20), .integer(21)]

    /// Opens the three stores, each from a factory and registry of its own; the Redis-backed one is connected.
    init(redisURL: String) throws {
        let registries = [StoreRegistry(), StoreRegistry(), StoreRegistry()]
        self.registries = registries
        memoryWriter = Writer(
            store: DefaultStoreFactory(registry: registries[0]).store(storage: .memory))
        let synced = DefaultStoreFactory(
            registry: registries[1], backend: try RedisBackend(url: redisURL, fleet: "bench", instance: "set-cost")
        ).store(storage: .backend(namespace: "set-cost"))
        guard synced.backendStatus?.state == .connected else {
            throw BenchError("the Redis-backed store did not connect to \(redisURL)")
        }
        redisWriter = Writer(store: synced)
        // Nothing listens on that port: the store never joins, so it only notes pending keys.
        let nowhere = try RedisBackend(
            url: "redis://127.0.0.1:\(try RedisTestServer.freePort())", fleet: "bench", instance: "set-cost-down")
        unreachableWriter = Writer(
            store: DefaultStoreFactory(registry: registries[2], backend: nowhere)
                .store(storage: .backend(namespace: "set-cost")))
        for writer in [memoryWriter, redisWriter, unreachableWriter] {
            try writer.store.replaceAll(with: Self.document)
        }
        redisWriter.store.flush()
    }

    var all: [Benchmark] {
        [
            sets(Self.memory, memoryWriter), sets(Self.redis, redisWriter, synced: true),
            sets(Self.unreachable, unreachableWriter),
            sets(Self.memoryCPU, memoryWriter, cpuTime: true),
            sets(Self.redisCPU, redisWriter, synced: true, cpuTime: true),
        ]
    }

    /// How the Redis-backed store ended (connected, nothing pending, after every round was flushed).
    var redisStatus: BackendStatus? { redisWriter.store.backendStatus }

    /// `set limits.cart` alternating two integers, timed by the wall clock, or with `cpuTime` by the CPU time of the
    /// writing thread (which leaves out the time the pusher, the reader and redis-server took the core from it).
    /// After a synced round the pushes are waited for, untimed, so that no round pays for the last one's.
    private func sets(_ name: String, _ writer: Writer, synced: Bool = false, cpuTime: Bool = false) -> Benchmark {
        Benchmark(name) { [self] iterations in
            let store = writer.store
            let path = path
            let values = values
            let first = writer.writes
            let cpuStart = threadCPUNanoseconds()
            var elapsed = ContinuousClock().measure {
                for k in first..<(first + iterations) { blackhole(store.set(path, values[k & 1])) }
            }
            if cpuTime { elapsed = .nanoseconds(Int64(threadCPUNanoseconds() - cpuStart)) }
            writer.writes += iterations
            if synced {
                store.flush()
                guard store.backendStatus?.pending == 0 else {
                    throw BenchError("the Redis-backed store still had changes pending after a round: \(name)")
                }
            }
            return elapsed
        }
    }
}
