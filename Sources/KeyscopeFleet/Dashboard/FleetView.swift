import Foundation
import KeyscopeCodec
public import KeyscopeCore
import KeyscopeRecording
public import KeyscopeRedis
public import Logging
import Synchronization

/// A fleet dashboard's view of every instance of a fleet (docs/fleet.md "Fleet inspection"): who is there (their
/// presence), a mirror of each one's state and recent log (followed from Redis), and the way to send an instance a
/// request. The fleet server serves its clients from it.
///
/// ```swift
/// let view = try FleetView(FleetView.Options(redis: "redis://127.0.0.1:6379", fleet: "shop"))
/// view.start()
/// view.instances()                       // [FleetInstance]: live or gone, seq, change rate…
/// view.snapshotMessage(of: "shop-1")     // the `snapshot` message of its current state
/// ```
/// Two threads follow Redis, each on a connection of its own (the follower: presence and logs; the reply reader),
/// and a queue sends requests. When Redis is unreachable the view keeps what it has, marks nothing, and catches up
/// by itself once Redis is back (instances publish a fresh snapshot when they rejoin).
public final class FleetView: Sendable {
    public struct Options: Sendable {
        public var redis: RedisURL
        public var fleet: String
        /// How long a request waits for the instance's answer before it is answered `unavailable`.
        public var requestTimeout: Duration = .seconds(5)
        /// How often the list of instances is read.
        public var directoryInterval: Duration = .milliseconds(500)
        /// How long one read of the logs waits for new entries.
        public var blockTime: Duration = .milliseconds(200)
        public var connectTimeout: Duration = .seconds(1)
        public var commandTimeout: Duration = .seconds(2)

        /// - Throws: ``RedisError`` `badURL` for a bad URL or fleet name.
        public init(redis: String, fleet: String = "keyscope") throws(RedisError) {
            self.redis = try RedisURL(parsing: redis)
            try RedisBackend.checkFleetName(fleet, "fleet name")
            self.fleet = fleet
        }
    }

    public let options: Options
    let keys: FleetKeys
    let logger: Logger
    /// This dashboard's id: where instances push its answers.
    let dashboardID = UUID().uuidString.lowercased()
    let state = Mutex(State())
    let requests: FleetRequests

    struct Entry {
        var presence: InstancePresence
        var mirror: InstanceMirror?
        /// The stream id the log is read after.
        var position = "0-0"
        /// Set while the mirror waits for a snapshot at this seq or later (it lost the thread of the log).
        var awaitingSnapshot: Int?
        var snapshotAskedAt: ContinuousClock.Instant?
        /// The mirror's seq when the instance was first seen ahead of it, and when: a mirror that stays behind with
        /// nothing in the log to read (the instance rejoined after an outage and published only a snapshot) reads
        /// the snapshot again.
        var behindSince: (seq: Int, at: ContinuousClock.Instant)?
        var checkSnapshot = false
        var rate = 0.0
        var rateSample: (seq: Int, at: ContinuousClock.Instant)?
    }

    struct State {
        var instances: [String: Entry] = [:]
        /// Changes when an instance joins, leaves or changes state (and every few seconds while any changes).
        var listVersion = 0
        /// Changes when an instance is mirrored for the first time (or anew) or leaves the list: when followers of
        /// every instance must look for new ones.
        var membersVersion = 0
        var stopping = false
        var onUpdate: (@Sendable () -> Void)?
    }

    public init(_ options: Options, logger: Logger = Logger(label: "keyscope.fleet")) {
        self.options = options
        self.keys = FleetKeys(fleet: options.fleet)
        self.logger = logger
        self.requests = FleetRequests(options: options, keys: keys, dashboardID: dashboardID, logger: logger)
    }

    /// Starts following Redis.
    public func start() {
        let follower = Thread { [self] in runFollower() }
        follower.name = "keyscope.fleet.follow"
        follower.start()
        requests.start()
    }

    public func stop() {
        state.withLock { $0.stopping = true }
        requests.stop()
    }

    var isStopping: Bool { state.withLock { $0.stopping } }

    /// Called (from the view's threads) whenever something a client may want changed: new entries, the list of
    /// instances, an answer. The server sets it to wake its thread.
    public var onUpdate: (@Sendable () -> Void)? {
        get { state.withLock { $0.onUpdate } }
        set { state.withLock { $0.onUpdate = newValue } }
    }

    func notify() { state.withLock { $0.onUpdate }?() }

    // MARK: Reading

    /// Every instance known, by id.
    public func instances() -> [FleetInstance] {
        state.withLock { state in
            let now = LogTime.now
            return state.instances.values.map {
                FleetInstance(presence: $0.presence, isLive: $0.presence.isLive(at: now), changeRate: $0.rate)
            }.sorted { $0.id < $1.id }
        }
    }

    /// The instance with `id`, if it is in the fleet.
    public func instance(_ id: String) -> FleetInstance? {
        state.withLock { state in
            state.instances[id].map {
                FleetInstance(presence: $0.presence, isLive: $0.presence.isLive(at: .now), changeRate: $0.rate)
            }
        }
    }

    /// Changes when an instance joins, leaves or changes state (and so the `fleet` message).
    public var listVersion: Int { state.withLock { $0.listVersion } }

    /// Changes when an instance is mirrored for the first time, mirrored anew, or forgotten.
    public var membersVersion: Int { state.withLock { $0.membersVersion } }

    /// `{"fleet": NAME, "instances": […]}`: `GET /api/fleet`, and with `"type": "fleet"` the WebSocket message.
    public func fleetObject() -> StoreValue {
        .object(["fleet": .string(options.fleet), "instances": .array(instances().map(\.jsonObject))])
    }

    /// The `snapshot` message of the instance's current state (with `"instance": ID`), or `nil` when the instance is
    /// unknown or its state has not been read yet.
    public func snapshotMessage(of id: String) -> [UInt8]? {
        state.withLock { $0.instances[id]?.mirror?.snapshotMessage(instance: id) }
    }

    /// Whether the instance's state has been read (its snapshot can be served).
    public func isMirrored(_ id: String) -> Bool { state.withLock { $0.instances[id]?.mirror != nil } }

    /// The instance's current state as store id → root (what the diff compares), with its seq.
    func storeRoots(of id: String) -> (seq: Int, roots: [StoreID: StoreValue])? {
        state.withLock { state in
            guard let mirror = state.instances[id]?.mirror else { return nil }
            var roots: [StoreID: StoreValue] = [:]
            for store in mirror.state.stores { roots[store.id] = store.root }
            return (mirror.seq, roots)
        }
    }
}
