import Foundation
import KeyscopeCore
import KeyscopeRedis
import Synchronization

/// Sync latency between two instances of a service sharing a backend store in Redis: instance A writes at a paced
/// rate, instance B hears each write as a change from A. Each instance is a `RedisBackend` of its own (its own
/// registry, factory, pusher and reader connections), as two processes would have. The peer is Redis alone: the
/// same rate of stream entries of the same shape (`XADD` on one connection, `XREAD BLOCK` on another), the floor
/// any sync through Redis pays.
///
/// ```swift
/// let sample = try BackendLatency.sync(url: redis.url, rate: 1_000, seconds: 4)
/// print(sample.p50, sample.p99)   // nanoseconds
/// ```
enum BackendLatency {
    /// Top-level keys the writes rotate over: at 1k/s a key is written again only after 100 ms, far longer than a
    /// push takes, so no write is coalesced into a later one and every write is heard on B.
    static let keyCount = 100

    /// A writes `rate` changes a second for `seconds`, each setting top-level key `k<i % 100>` to its send time
    /// (monotonic ns); B's observer records receipt − send time for every patch it applies from A. `coalescing` is
    /// the pushers' ``RedisBackend/Options/pushCoalescing`` (the default's 2 ms is part of the latency).
    static func sync(
        url: String, rate: Int, seconds: Double, coalescing: Duration = RedisBackend.Options().pushCoalescing
    ) throws -> LatencySample {
        var options = RedisBackend.Options()
        options.pushCoalescing = coalescing
        let namespace = "bench-\(UUID().uuidString.prefix(8))"
        let a = try instance(url, "bench-a", namespace, options)
        let b = try instance(url, "bench-b", namespace, options)
        let received = Mutex<[UInt64]>([])
        received.withLock { $0.reserveCapacity(Int(Double(rate) * seconds) + 256) }
        let token = b.registry.observe { activity in
            // Called under B's store lock, right where the change is applied.
            guard case .changed(let change) = activity, change.origin == "bench-a" else { return }
            let now = monotonicNanoseconds()
            received.withLock { samples in
                for patch in change.patches {
                    if case .integer(let sent)? = patch.newValue { samples.append(now - UInt64(sent)) }
                }
            }
        }
        defer { token.cancel() }
        let paths = (0..<keyCount).map { StoreKeyPath(segments: [.key("k\($0)")]) }
        // Warm up (connections, first pushes), then start from an empty sample list.
        _ = pace(rate: rate, count: rate / 4, offset: 0) { key, value in a.store.set(paths[key], value) }
        try waitUntil("the warm-up reached B", b.store, holds: a.store)
        received.withLock { $0.removeAll(keepingCapacity: true) }

        let count = Int(Double(rate) * seconds)
        let elapsed = pace(rate: rate, count: count, offset: rate / 4) { key, value in
            a.store.set(paths[key], value)
        }
        try waitUntil("B caught up with A", b.store, holds: a.store)
        let samples = received.withLock { $0 }
        return try LatencySample(rate: rate, written: count, elapsed: elapsed, unsorted: samples, what: "sync latency")
    }

    /// The peer: `XADD` of entries shaped like a push's (`o` instance, `+k<i>` the send time as JSON) at `rate`
    /// for `seconds` on one connection, read on another with `XREAD BLOCK`; receipt − send time per entry.
    static func streamPeer(url: String, rate: Int, seconds: Double) throws -> LatencySample {
        let parsed = try RedisURL(parsing: url)
        let stream = "bench:peer:\(UUID().uuidString.prefix(8))"
        let count = Int(Double(rate) * seconds)
        let received = Mutex<[UInt64]>([])
        let failure = Mutex<(any Error)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let reader = Thread {
            defer { finished.signal() }
            let client = RedisClient(url: parsed)
            var last = "0-0"
            var samples: [UInt64] = []
            samples.reserveCapacity(count)
            let deadline = monotonicNanoseconds() + UInt64(seconds * 1e9) + 30_000_000_000
            do {
                while samples.count < count && monotonicNanoseconds() < deadline {
                    let reply = try client.call(["XREAD", "COUNT", "512", "BLOCK", "1000", "STREAMS", stream, last])
                    let now = monotonicNanoseconds()
                    for entry in reply.array?.first?.array?.last?.array ?? [] {
                        guard let pair = entry.array, pair.count == 2, let id = pair[0].string else { continue }
                        last = id
                        if let fields = pair[1].array, fields.count == 4,
                            let sent = fields[3].string.flatMap(UInt64.init)
                        {
                            samples.append(now - sent)
                        }
                    }
                }
            } catch {
                failure.withLock { $0 = error }
            }
            received.withLock { $0 = samples }
        }
        reader.name = "bench.redis-peer.read"
        reader.start()
        let writer = RedisClient(url: parsed)
        var writeError: (any Error)?
        let elapsed = pace(rate: rate, count: count, offset: 0) { key, value in
            guard writeError == nil, case .integer(let sent) = value else { return }
            do {
                try writer.call([
                    "XADD", stream, "MAXLEN", "~", "1000", "*", "o", "bench-a", "+k\(key)", String(sent),
                ])
            } catch {
                writeError = error
            }
        }
        finished.wait()
        if let error = writeError ?? failure.withLock({ $0 }) {
            throw BenchError("the Redis stream peer failed: \(error)")
        }
        _ = try? writer.call(["DEL", stream])
        return try LatencySample(
            rate: rate, written: count, elapsed: elapsed, unsorted: received.withLock { $0 }, what: "stream peer")
    }

    /// One instance of the service: a backend, registry and factory of its own, and the store
    /// `app/backend:<namespace>`.
    private static func instance(_ url: String, _ id: String, _ namespace: String, _ options: RedisBackend.Options)
        throws -> (registry: StoreRegistry, store: KeyValueStore)
    {
        let registry = StoreRegistry()
        let backend = try RedisBackend(url: url, fleet: "bench", instance: id, options: options)
        let store = DefaultStoreFactory(registry: registry, backend: backend)
            .store(storage: .backend(namespace: namespace))
        guard store.backendStatus?.state == .connected else {
            throw BenchError("instance \(id) did not connect to \(url)")
        }
        return (registry, store)
    }

    /// Calls `write` with the key's number `i` (key `k<i>`) and the send time, at `rate` a second
    /// (`clock_nanosleep` to each due time), and returns the time it took.
    private static func pace(rate: Int, count: Int, offset: Int, _ write: (Int, StoreValue) -> Void) -> Duration {
        let interval = 1_000_000_000 / UInt64(rate)
        let start = monotonicNanoseconds()
        for index in 0..<count {
            let due = start + UInt64(index) * interval
            var deadline = timespec(tv_sec: Int(due / 1_000_000_000), tv_nsec: Int(due % 1_000_000_000))
            if monotonicNanoseconds() < due { _ = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) }
            write((offset + index) % keyCount, .integer(Int64(monotonicNanoseconds())))
        }
        return .nanoseconds(Int64(monotonicNanoseconds() - start))
    }

    /// Waits (a guard of 30 s, never a measure) until `store` holds what `source` holds.
    private static func waitUntil(_ what: String, _ store: KeyValueStore, holds source: KeyValueStore) throws {
        let deadline = monotonicNanoseconds() + 30_000_000_000
        while store.snapshot() != source.snapshot() {
            guard monotonicNanoseconds() < deadline else { throw BenchError("\(what): not within 30 s") }
            usleep(1_000)
        }
    }
}

extension LatencySample {
    /// The percentiles of `unsorted` (nanoseconds) for `written` writes made at `rate` over `elapsed`.
    init(rate: Int, written: Int, elapsed: Duration, unsorted: [UInt64], what: String) throws {
        let sorted = unsorted.sorted()
        guard let slowest = sorted.last else { throw BenchError("\(what) at \(rate)/s: nothing was received") }
        func percentile(_ p: Double) -> UInt64 { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        self.init(
            rate: rate, achievedRate: Double(written) / (Harness.nanoseconds(elapsed) / 1e9),
            samples: sorted.count, p50: percentile(0.5), p99: percentile(0.99), p999: percentile(0.999), max: slowest)
    }
}
