import KeyscopeCodec
public import KeyscopeCore
import Synchronization

/// The inspector hub: hears every change of every store in a registry, gives each a global `seq` and a time, keeps
/// them in a bounded log that feeds every client from its own cursor, and is the one validated way back into the
/// stores for clients' writes and reverts.
///
/// ```swift
/// let hub = InspectorHub(registry: .shared, options: HubOptions(maxEntries: 50_000))
/// hub.onAppend = { wakeServiceThread() }          // set once, before start()
/// hub.start()
/// let (snapshot, cursor) = hub.makeCursor()         // a new client
/// send(snapshot.messageBytes())
/// while let read = cursor.next(maxEntries: 1000, maxBytes: 1 << 20) { … }   // when the client is writable
/// let seq = try hub.write(store: "app/memory", op: "set", path: "cart.total", value: 100)
/// ```
///
/// **Under the store's lock.** The registry calls the hub's observer synchronously, under the lock of the store
/// that changed. The observer takes the next seq and the time, appends the entry, updates the hub's copy of that
/// store (``HubMirror``) and calls ``onAppend``; its only walk over values is the byte estimate, and it never encodes
/// JSON, never waits for a client and never calls a store. Appending never waits for readers: a cursor that the log's
/// tail passed gets a `gap` and a fresh snapshot when it next reads.
///
/// **Thread safety.** All mutable state is in one `Mutex` (the log, the mirror, the subscriptions version), held only
/// for short sections that call out to nothing; start and stop are serialised by a second one.
public final class InspectorHub: Sendable {
    public let registry: StoreRegistry
    public let options: HubOptions

    struct State {
        var log = HubLog()
        var mirror = HubMirror()
        /// Bumped on every `.subscriptionsChanged` of a known store; cursors compare it with what they last sent.
        var subscriptionsVersion = 0
        /// Bumped by start and stop, so that a call from a detached observer (already on its way) is ignored.
        var generation = 0
        var running = false
        var onAppend: (@Sendable () -> Void)?

        func snapshotParts() -> SnapshotParts {
            SnapshotParts(mirror: mirror, seq: log.lastSeq, subscriptionsVersion: subscriptionsVersion)
        }
    }

    let state = Mutex(State())
    /// The observation while running; held through the whole of start and stop.
    private let lifecycle = Mutex<ObservationToken?>(nil)

    public init(registry: StoreRegistry = .shared, options: HubOptions = HubOptions()) {
        self.registry = registry
        self.options = options
    }

    deinit { lifecycle.withLock { $0?.cancel() } }

    /// Called after every append (and every subscription-list change), from the observer, so under the lock of the
    /// store that changed: keep it trivial (the server wakes its service thread here). Set it before ``start()``.
    public var onAppend: (@Sendable () -> Void)? {
        get { state.withLock { $0.onAppend } }
        set { state.withLock { $0.onAppend = newValue } }
    }

    /// Whether the hub is observing its registry.
    public var isRunning: Bool { state.withLock { $0.running } }

    /// The newest seq handed out (0 before the first entry).
    public var lastSeq: Int { state.withLock { $0.log.lastSeq } }

    /// The oldest and newest seq still in the log; empty before the first entry or when it was all evicted.
    public var logRange: ClosedRange<Int>? {
        state.withLock { $0.log.count == 0 ? nil : $0.log.firstSeq...$0.log.lastSeq }
    }

    /// The log entry with `seq`, if it is still in the log.
    public func entry(seq: Int) -> HubLogEntry? { state.withLock { $0.log.entry(seq: seq) } }

    /// Changes whenever a known store's subscriptions start or end; see ``HubCursor/subscriptionsUpdate()``.
    public var subscriptionsVersion: Int { state.withLock { $0.subscriptionsVersion } }

    // MARK: Starting and stopping

    /// Attaches the observer, then picks up the stores already registered: each gets a `registered` entry with its
    /// state, read under that store's lock so that no change of it is lost or counted twice. Stores registered later
    /// arrive through the observer. Does nothing when already running.
    public func start() {
        lifecycle.withLock { token in
            guard token == nil else { return }
            let generation = state.withLock { state in
                state.running = true
                state.generation += 1
                return state.generation
            }
            token = registry.observe { [weak self] activity in self?.observe(activity, generation: generation) }
            for store in registry.stores { pickUp(store, generation: generation) }
        }
    }

    /// Detaches the observer. Every store the hub knew gets a `removed` entry (the hub no longer follows it, and
    /// the log stays replayable); a later ``start()`` registers them again. Does nothing when not running.
    public func stop() {
        lifecycle.withLock { token in
            guard let observation = token else { return }
            let wake = state.withLock { state -> (@Sendable () -> Void)? in
                state.running = false
                state.generation += 1
                for id in state.mirror.stores.keys.sorted() {
                    let estimate = HubLogEntry.estimate(.removed, storeID: id)
                    _ = state.log.append(
                        { HubLogEntry(seq: $0, time: .now, storeID: id, event: .removed, estimatedBytes: estimate) },
                        options: options)
                }
                state.mirror.removeAll()
                return state.onAppend
            }
            observation.cancel()
            token = nil
            wake?()
        }
    }

    /// Reads a store already registered when the hub started, inside a transaction that writes nothing: its body
    /// runs under the store's lock, so every change of the store is either in the state read here or heard by the
    /// observer after the store is known. Stores that left the registry meanwhile are skipped.
    private func pickUp(_ store: any Store, generation: Int) {
        do {
            try store.transaction { tx in
                guard let registered = registry.store(store.id), registered === store else { return }
                let event = HubLogEvent.registered(version: store.version, root: tx.get(.root) ?? .emptyObject)
                let estimate = HubLogEntry.estimate(event, storeID: store.id)
                let wake = state.withLock { state -> (@Sendable () -> Void)? in
                    guard state.running, state.generation == generation, !state.mirror.contains(store.id) else {
                        return nil
                    }
                    _ = state.mirror.apply(event, to: store.id)
                    _ = state.log.append(
                        {
                            HubLogEntry(
                                seq: $0, time: .now, storeID: store.id, event: event, estimatedBytes: estimate)
                        },
                        options: options)
                    return state.onAppend
                }
                wake?()
            }
        } catch {
            // Only a store that was removed (store_removed) refuses the empty transaction: nothing to pick up.
        }
    }

    // MARK: The observer (under the store's lock)

    private func observe(_ activity: StoreActivity, generation: Int) {
        let id = activity.storeID
        let event: HubLogEvent
        switch activity {
        case .changed(let change): event = .change(change)
        case .registered(_, let version, let root): event = .registered(version: version, root: root)
        case .reset(_, let version): event = .reset(version: version)
        case .removed: event = .removed
        case .subscriptionsChanged(_, let list):
            let wake = state.withLock { state -> (@Sendable () -> Void)? in
                guard state.running, state.generation == generation,
                    state.mirror.setSubscriptions(list, of: id)
                else { return nil }
                state.subscriptionsVersion += 1
                return state.onAppend
            }
            wake?()
            return
        }
        let estimate = HubLogEntry.estimate(event, storeID: id)
        let appended = state.withLock { state -> (entry: HubLogEntry, wake: (@Sendable () -> Void)?)? in
            guard state.running, state.generation == generation, state.mirror.apply(event, to: id) else { return nil }
            let entry = state.log.append(
                { HubLogEntry(seq: $0, time: .now, storeID: id, event: event, estimatedBytes: estimate) },
                options: options)
            return (entry, state.onAppend)
        }
        guard let appended else { return }
        WriteTicket.current?.offer(appended.entry, from: self)
        appended.wake?()
    }

    // MARK: Snapshots and subscriptions

    /// The state of every known store as of the newest seq, and their live subscriptions. Do not call it from
    /// inside a store observer (the subscription lists are read from the stores).
    public func snapshot() -> HubSnapshot {
        finish(state.withLock { $0.snapshotParts() })
    }

    /// Completes a snapshot outside the lock: sorts the stores and reads fresh subscription lists.
    func finish(_ parts: SnapshotParts) -> HubSnapshot {
        let stores = parts.stores.sorted { $0.id < $1.id }
        var subscriptions: [SubscriptionInfo] = []
        for store in stores {
            subscriptions += liveSubscriptions(of: store.id) ?? parts.mirroredSubscriptions[store.id] ?? []
        }
        return HubSnapshot(seq: parts.seq, stores: stores, subscriptions: subscriptions)
    }

    /// The live subscriptions of every known store, ordered by store and id, with their current delivery counts
    /// (read from the stores: do not call from inside a store observer).
    public func subscriptions() -> [SubscriptionInfo] {
        let known = state.withLock { $0.mirror.stores.mapValues(\.subscriptions) }
        return known.keys.sorted().flatMap { liveSubscriptions(of: $0) ?? known[$0] ?? [] }
    }

    private func liveSubscriptions(of id: StoreID) -> [SubscriptionInfo]? {
        registry.store(id).map { $0.subscriptions.sorted { $0.id < $1.id } }
    }
}
