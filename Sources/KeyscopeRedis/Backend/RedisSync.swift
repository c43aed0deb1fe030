import Dispatch
import Foundation
import KeyscopeCore
import Logging
import Synchronization

/// One store synced with its namespace's document in Redis: a pusher thread and a blocking reader thread, each with a
/// connection of its own (a hiredis context belongs to one thread), around a state both share under a lock.
///
/// The store tells it of local changes under its lock (``localChange(_:root:)`` only notes the top-level keys and
/// wakes the pusher); the pusher writes those keys' latest values to Redis; the reader follows the document's
/// stream and applies other instances' writes through the ``BackendLink``. docs/fleet.md has the rules.
final class RedisSync: BackendSync {
    struct State {
        /// Top-level keys changed here and not yet in Redis → the local change count when last changed.
        var pending: [String: UInt64] = [:]
        /// Top-level key → the Redis version of the newest write to it that this store holds (applied or pushed).
        var known: [String: Int64] = [:]
        /// The incarnation of the document this store is synced with (`nil` before the first join).
        var epoch: String?
        /// The stream position: every entry up to this version has been seen.
        var lastVersion: Int64 = 0
        var localChanges: UInt64 = 0
        var connection: BackendStatus.State = .connecting
        var needsJoin = true
        var stopped = false
        /// A push is on its way and its answer not taken in yet (its keys still pending).
        var pushing = false
        /// Pending key → the newest version of another instance's write to it that was passed over (see
        /// ``takesRemote(_:at:)``).
        var passedOver: [String: Int64] = [:]
        /// Counts the joins asked for by ``acknowledge(_:version:)``: a join that was under way when one was asked
        /// for may have passed over the same write, so it does not count as the one asked for.
        var joinRequests: UInt64 = 0
    }

    let backend: RedisBackend
    let layout: RedisLayout
    let link: BackendLink
    let namespace: String
    let state = Mutex(State())
    /// Wakes the pusher: keys became pending, a join happened, or syncing stops.
    let wake = DispatchSemaphore(value: 0)
    /// Wakes the reader from a backoff pause when syncing stops.
    let readerWake = DispatchSemaphore(value: 0)
    /// Signalled once, after the first join or the first failure to reach Redis.
    let firstAttempt = DispatchSemaphore(value: 0)
    let firstAttemptDone = Atomic<Bool>(false)

    init(backend: RedisBackend, layout: RedisLayout, namespace: String, link: BackendLink) {
        self.backend = backend
        self.layout = layout
        self.namespace = namespace
        self.link = link
    }

    /// Starts the two threads.
    func start() {
        let pusher = Thread { [self] in runPusher() }
        pusher.name = "keyscope.redis.push"
        let reader = Thread { [self] in runReader() }
        reader.name = "keyscope.redis.read"
        pusher.start()
        reader.start()
    }

    // MARK: BackendSync

    func localChange(_ change: StoreChange, root: StoreValue) {
        // The writer's path: no allocation beyond the pending table's, one short lock.
        let wasIdle = state.withLock { state -> Bool in
            state.localChanges += 1
            let idle = state.pending.isEmpty
            for patch in change.patches {
                if case .key(let key)? = patch.keyPath.segments.first {
                    state.pending[key] = state.localChanges
                } else {
                    for key in change.topLevelKeys { state.pending[key] = state.localChanges }
                    break
                }
            }
            return idle && !state.pending.isEmpty
        }
        if wasIdle { wake.signal() }
    }

    func flush() {
        let deadline = ContinuousClock.now + backend.options.flushTimeout
        while ContinuousClock.now < deadline {
            if state.withLock({ $0.pending.isEmpty || $0.stopped }) { return }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    var status: BackendStatus {
        state.withLock { state in
            // Changes since the oldest one whose key is still waiting (the ones after it may be waiting too).
            let oldest = state.pending.values.min()
            let pending = oldest.map { Int(state.localChanges - $0 + 1) } ?? 0
            return BackendStatus(
                kind: "redis", location: backend.url.description, state: state.connection, pending: pending)
        }
    }

    func stop() {
        state.withLock { $0.stopped = true }
        wake.signal()
        readerWake.signal()
    }

    var isStopped: Bool { state.withLock { $0.stopped } || !link.isAlive }

    // MARK: Shared by both threads

    func markConnected() {
        let changed = state.withLock { state -> Bool in
            defer { state.connection = .connected }
            return state.connection != .connected
        }
        if changed {
            backend.logger.info(
                "backend store synced with Redis",
                metadata: ["namespace": "\(namespace)", "redis": "\(backend.url)"])
        }
        noteFirstAttempt()
    }

    func markUnreachable(_ error: RedisError) {
        let wasConnected = state.withLock { state -> Bool in
            let was = state.connection == .connected
            if state.connection == .connected { state.connection = .disconnected }
            state.needsJoin = true
            return was
        }
        if wasConnected {
            backend.logger.warning(
                "Redis unreachable; writes stay local and are pushed when it returns",
                metadata: ["namespace": "\(namespace)", "error": "\(error)"])
        }
        noteFirstAttempt()
    }

    func noteFirstAttempt() {
        if !firstAttemptDone.exchange(true, ordering: .acquiringAndReleasing) { firstAttempt.signal() }
    }

    /// Sleeps `delay` on `semaphore`, waking early when it is signalled.
    func pause(_ delay: Duration, on semaphore: DispatchSemaphore? = nil) {
        _ = (semaphore ?? wake).wait(timeout: .now() + delay.timeInterval)
    }

    static func topLevelPath(_ key: String) -> StoreKeyPath { StoreKeyPath(segments: [.key(key)]) }
}
