import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopeRedis
import Logging
import Synchronization

/// The thread that publishes one instance to its fleet: its presence (a heartbeat), its change log (read from the
/// hub with a cursor, like any client: a `set` never waits for it), its snapshot and its subscription list.
///
/// It owns its Redis connection. When Redis is unreachable it retries with a backoff and the hub's log moves on
/// without it; once back, its cursor reports the gap, and it publishes a fresh snapshot before the next entries, so
/// a fleet dashboard resyncs (docs/fleet.md "Faults").
final class FleetPublisher: Sendable {
    let options: FleetOptions
    let keys: FleetKeys
    let link: HubLink
    let logger: Logger
    let epoch = UUID().uuidString.lowercased()
    let startedAt = LogTime.now
    private let state = Mutex(State())
    /// Wakes the loop early: stopping, or a snapshot asked for.
    private let wake = DispatchSemaphore(value: 0)
    /// The last seq published (in the log or in a snapshot): how far the fleet can see.
    let published = Atomic<Int>(0)
    /// Signalled when the loop has ended (and said so to the fleet).
    private let finished = DispatchSemaphore(value: 0)

    struct State {
        var stopping = false
        var snapshotWanted = false
        var connected: Bool?
    }

    /// Batches of the change log: at most this many entries and bytes per stream entry.
    static let batchEntries = 1000
    static let batchBytes = 512 << 10
    /// How long the loop sleeps when the hub has nothing new (the lag it adds, at most).
    static let idlePause = Duration.milliseconds(10)

    init(options: FleetOptions, link: HubLink, logger: Logger) {
        self.options = options
        self.keys = FleetKeys(fleet: options.fleet)
        self.link = link
        self.logger = logger
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "keyscope.fleet.publish"
        thread.start()
    }

    func stop() {
        state.withLock { $0.stopping = true }
        wake.signal()
    }

    /// Publishes a fresh snapshot soon (a dashboard's mirror could not follow the stream).
    func wantSnapshot() {
        state.withLock { $0.snapshotWanted = true }
        wake.signal()
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    // MARK: The loop

    private struct Progress {
        var cursor: HubCursor?
        /// The last seq published (in the stream or as a snapshot).
        var seq = 0
        /// The first seq of the last batch in the stream: the time part of its id, which the subscription lists
        /// after it share (stream ids only grow).
        var streamTop = 0
        var snapshotSeq = 0
        var nextHeartbeat = ContinuousClock.now
        var joined = false
        var hubHasRun = false
    }

    private func run() {
        let client = RedisClient(
            url: options.redis, connectTimeout: options.connectTimeout, commandTimeout: options.commandTimeout)
        var progress = Progress()
        var backoff = RedisBackoff()
        while !isStopping {
            guard let hub = link.current else { break }
            if hub.isRunning {
                progress.hubHasRun = true
            } else if progress.hubHasRun {
                break  // the inspector stopped: the instance leaves the fleet
            } else {
                pause(Self.idlePause)
                continue
            }
            do throws(RedisError) {
                if !progress.joined {
                    try join(client, hub: hub, progress: &progress)
                    backoff.reset()
                }
                if ContinuousClock.now >= progress.nextHeartbeat { try heartbeat(client, progress: &progress) }
                if state.withLock({ $0.snapshotWanted }) || progress.seq - progress.snapshotSeq > options.logLength / 2
                {
                    state.withLock { $0.snapshotWanted = false }
                    try publishSnapshot(client, hub.snapshot(), progress: &progress)
                }
                let published = try publishEntries(client, progress: &progress)
                if let list = progress.cursor?.subscriptionsUpdate() {
                    try publishSubscriptions(client, list, progress: progress)
                }
                if !published { pause(Self.idlePause) }
            } catch {
                noteUnreachable(error)
                progress.joined = false
                pause(backoff.nextDelay())
            }
        }
        leave(client, progress: progress)
        finished.signal()
    }

    /// Waits until the loop has ended, at most `timeout`; `false` when it has not.
    func waitUntilFinished(timeout: Duration) -> Bool {
        finished.wait(timeout: .now() + timeout.seconds) == .success
    }

    private func pause(_ delay: Duration) {
        _ = wake.wait(timeout: .now() + delay.seconds)
    }

    // MARK: Steps

    /// Announces the instance and publishes its state. The first join of this run starts a new log (an earlier run
    /// under the same id had other seqs); a join after an outage keeps the stream, whose ids only grow.
    private func join(_ client: RedisClient, hub: InspectorHub, progress: inout Progress) throws(RedisError) {
        if let cursor = progress.cursor {
            // The entries of the outage are not published: the snapshot holds them, and the cursor continues after it.
            try publishSnapshot(client, cursor.resync(), progress: &progress)
        } else {
            let (snapshot, cursor) = hub.makeCursor()
            try client.call(["DEL", keys.log(options.instance), keys.snapshot(options.instance)])
            progress.cursor = cursor
            try publishSnapshot(client, snapshot, progress: &progress)
        }
        try heartbeat(client, progress: &progress)
        progress.joined = true
        noteConnected()
    }

    private func presence(seq: Int, stopped: Bool = false) -> InstancePresence {
        InstancePresence(
            id: options.instance, name: options.name, host: ProcessInfo.processInfo.hostName,
            pid: Int(ProcessInfo.processInfo.processIdentifier), version: FleetMember.version, startedAt: startedAt,
            lastSeen: .now, seq: seq, readOnly: options.readOnly, epoch: epoch, stopped: stopped)
    }

    private func heartbeat(_ client: RedisClient, progress: inout Progress) throws(RedisError) {
        let now = presence(seq: progress.seq)
        try client.call(["HSET", keys.presence(options.instance)] + now.fields)
        try client.call([
            "ZADD", keys.instances, String(now.lastSeen.microsecondsSince1970 / 1000), options.instance,
        ])
        let seconds = String(FleetKeys.retention.components.seconds)
        for key in keys.all(options.instance) { try client.call(["EXPIRE", key, seconds]) }
        progress.nextHeartbeat = ContinuousClock.now + options.heartbeat
    }

    /// Publishes `snapshot` (secrets redacted) as the instance's latest.
    private func publishSnapshot(_ client: RedisClient, _ snapshot: HubSnapshot, progress: inout Progress)
        throws(RedisError)
    {
        let redacted = HubSnapshot(
            seq: snapshot.seq,
            stores: snapshot.stores.map { store in
                guard SecretRedaction.isSecret(store.id) else { return store }
                return HubStoreState(
                    id: store.id, version: store.version, root: SecretRedaction.redact(store.root),
                    backend: store.backend)
            },
            subscriptions: snapshot.subscriptions)
        try client.call(bytes: [
            Array("SET".utf8), Array(keys.snapshot(options.instance).utf8), redacted.messageBytes(),
        ])
        progress.snapshotSeq = snapshot.seq
        progress.seq = max(progress.seq, snapshot.seq)
        published.store(progress.seq, ordering: .releasing)
    }

    /// One batch of new entries as one stream entry; `false` when there was nothing to publish.
    private func publishEntries(_ client: RedisClient, progress: inout Progress) throws(RedisError) -> Bool {
        guard let cursor = progress.cursor,
            let read = cursor.next(maxEntries: Self.batchEntries, maxBytes: Self.batchBytes)
        else { return false }
        switch read {
        case .entries(let entries):
            guard let first = entries.first, let last = entries.last else { return false }
            var lines: [UInt8] = []
            for (index, entry) in entries.enumerated() {
                if index > 0 { lines.append(UInt8(ascii: "\n")) }
                lines +=
                    SecretRedaction.isSecret(entry.storeID)
                    ? SecretRedaction.redactLine(entry.lineBytes) : entry.lineBytes
            }
            let trimBelow = max(0, last.seq - options.logLength)
            try client.call(bytes: [
                Array("XADD".utf8), Array(keys.log(options.instance).utf8), Array("MINID".utf8), Array("~".utf8),
                Array("\(trimBelow)".utf8), Array("\(first.seq)-*".utf8), Array("f".utf8), Array("\(first.seq)".utf8),
                Array("l".utf8), Array("\(last.seq)".utf8), Array("d".utf8), lines,
            ])
            progress.seq = last.seq
            progress.streamTop = first.seq
            published.store(last.seq, ordering: .releasing)
        case .gap(_, _, let snapshot), .snapshot(let snapshot):
            try publishSnapshot(client, snapshot, progress: &progress)
        }
        return true
    }

    /// The subscription list, in the stream after the entries published so far (a dashboard sends it on in order).
    private func publishSubscriptions(_ client: RedisClient, _ list: [SubscriptionInfo], progress: Progress)
        throws(RedisError)
    {
        try client.call(bytes: [
            Array("XADD".utf8), Array(keys.log(options.instance).utf8), Array("\(progress.streamTop)-*".utf8),
            Array("s".utf8), HubMessages.subscriptionList(list),
        ])
    }

    /// Says the instance stopped, so that dashboards show it `gone` at once; its data stays for an hour.
    private func leave(_ client: RedisClient, progress: Progress) {
        guard progress.joined else { return }
        _ = try? client.call(
            ["HSET", keys.presence(options.instance)] + presence(seq: progress.seq, stopped: true).fields)
        client.disconnect()
    }

    private func noteConnected() {
        let was = state.withLock { state -> Bool? in
            defer { state.connected = true }
            return state.connected
        }
        if was != true {
            logger.info(
                "joined the fleet",
                metadata: [
                    "fleet": "\(options.fleet)", "instance": "\(options.instance)",
                    "redis": "\(options.redis)",
                ])
        }
    }

    private func noteUnreachable(_ error: RedisError) {
        let was = state.withLock { state -> Bool? in
            defer { state.connected = false }
            return state.connected
        }
        if was != false {
            logger.warning(
                "fleet unreachable; the inspector goes on and rejoins when Redis returns",
                metadata: ["fleet": "\(options.fleet)", "redis": "\(options.redis)", "error": "\(error)"])
        }
    }
}
