import Dispatch
import KeyscopeCodec
public import KeyscopeCore
import Synchronization

/// The inspector hub: hears every change of every store in a registry, gives each a global `seq` and a time, keeps
/// them in a bounded log that feeds every client from its own cursor, and is the one validated way back into the
/// stores for clients' writes and reverts.
///
/// ```swift
/// let hub = InspectorHub(registry: .shared, options: HubOptions(maxEntries: 50_000))
/// hub.appendSignal.install { wakeServiceThread() } // before start(): one call per burst of changes
/// hub.start()
/// let (snapshot, cursor) = hub.makeCursor()         // a new client
/// send(snapshot.messageBytes())
/// while let read = cursor.next(maxEntries: 1000, maxBytes: 1 << 20) { … }   // when the client is writable
/// let seq = try hub.apply([.set("cart.total", 100)], to: StoreID("app/memory")!)
/// ```
///
/// **Under the store's lock.** The registry calls the hub's observer synchronously, under the lock of the store
/// that changed. The observer only takes the next seq and the time, appends the entry and raises ``appendSignal``: it
/// never walks a value, never encodes JSON, never waits for a client and never calls a store. The log's bounds (byte
/// estimates, eviction) are kept by ``settle()`` on a reader's thread (or a background queue when no reader keeps
/// up), and a snapshot reads the stores themselves (see ``snapshot()``), so the hub keeps no copy of their state.
/// Appending never waits for readers: a cursor that the log's tail passed gets a `gap` and a fresh snapshot when it
/// next reads.
///
/// **Thread safety.** The log and the known stores are in one `Mutex`, held by the observer only to append and by
/// readers only to copy references out; it is never held while calling out. Settling is serialised by a second one,
/// start and stop by a third.
public final class InspectorHub: Sendable {
    public let registry: StoreRegistry
    public let options: HubOptions

    struct State {
        var log = HubLog()
        /// The stores the log's newest entry leaves in the state, with the subscription list each last reported
        /// (the live list is read from the store when asked). The observer decides with it what belongs in the log.
        var known: [StoreID: [SubscriptionInfo]] = [:]
        /// The store of the last change the observer admitted, while it is known: a busy store's changes skip the
        /// lookup in ``known`` (hashing its id under the lock). Cleared whenever a store leaves ``known``.
        var lastAdmitted: StoreID?
        /// Bumped on every `.subscriptionsChanged` of a known store; cursors compare it with what they last sent.
        var subscriptionsVersion = 0
        /// Bumped by start and stop, so that a call from a detached observer (already on its way) is ignored.
        var generation = 0
        var running = false
        /// The seqs that snapshots being made start from: entries after the oldest are not evicted meanwhile.
        var pins: [Int] = []
        /// The sum of the delivery counts when the subscription list was last marked changed by the timer.
        var deliveriesSent = 0
    }

    let state = Mutex(State())
    /// Serialises ``settle()``, the only place where entries are evicted; taken before `state`, never while holding
    /// it. Readers hold it while they retain what they copied out of the log unretained (see
    /// `HubLog.unretainedEntries`).
    let settling = Mutex(())
    /// Set while a settle is queued on ``settleQueue`` (see ``settleInBackground()``).
    private let settleQueued = Atomic<Bool>(false)
    /// When the memory that evictions freed is next given back (``HubOptions/freedMemoryReturn``).
    private let freedMemory: FreedMemoryReturn?
    /// The observation while running; held through the whole of start and stop.
    private let lifecycle = Mutex<ObservationToken?>(nil)
    /// Re-sends the subscription list when delivery counts moved (see ``refreshDeliveries()``), while running.
    private let deliveriesTimer = Mutex<(any DispatchSourceTimer)?>(nil)
    /// The features added to the hub (see ``add(_:)``), in the order they were added; never held while calling out.
    let featureList = Mutex(FeatureList())
    /// Wakes the reader that follows the log (the server) once per burst of changes: raised after every append and
    /// every subscription-list change, outside the hub's lock.
    public let appendSignal = AppendSignal()

    /// A hub on `registry`, serving `features` (more can be added later with ``add(_:)``).
    public init(
        registry: StoreRegistry = .shared, options: HubOptions = HubOptions(), features: [any InspectorFeature] = []
    ) {
        self.registry = registry
        self.options = options
        self.freedMemory = options.freedMemoryReturn.map { FreedMemoryReturn(interval: $0) }
        for feature in features { add(feature) }
    }

    deinit {
        lifecycle.withLock { $0?.cancel() }
        deliveriesTimer.withLock { $0?.cancel() }
    }

    /// Whether the hub is observing its registry.
    public var isRunning: Bool { state.withLock { $0.running } }

    /// The newest seq handed out (0 before the first entry).
    public var lastSeq: Int { state.withLock { $0.log.lastSeq } }

    /// The oldest and newest seq still in the log (after settling it); empty before the first entry or when it was
    /// all evicted.
    public var logRange: ClosedRange<Int>? {
        settle()
        return state.withLock { $0.log.count == 0 ? nil : $0.log.firstSeq...$0.log.lastSeq }
    }

    /// The log entry with `seq`, if it is still in the log (after settling it).
    public func entry(seq: Int) -> HubLogEntry? {
        settle()
        return state.withLock { $0.log.entry(seq: seq) }
    }

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
            deliveriesTimer.withLock { $0 = makeDeliveriesTimer() }
        }
    }

    /// Detaches the observer. Every store the hub knew gets a `removed` entry (the hub no longer follows it, and
    /// the log stays replayable); a later ``start()`` registers them again. Does nothing when not running.
    public func stop() {
        lifecycle.withLock { token in
            guard let observation = token else { return }
            state.withLock { state in
                state.running = false
                state.generation += 1
                for id in state.known.keys.sorted() {
                    _ = state.log.append(time: .now, storeID: id, event: .removed)
                }
                state.known = [:]
                state.lastAdmitted = nil
            }
            observation.cancel()
            token = nil
            deliveriesTimer.withLock { timer in
                timer?.cancel()
                timer = nil
            }
            settle()
            appendSignal.raise()
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
                let appended = state.withLock { state -> Bool in
                    guard state.running, state.generation == generation, state.known[store.id] == nil else {
                        return false
                    }
                    state.known[store.id] = []
                    _ = state.log.append(time: .now, storeID: store.id, event: event)
                    return true
                }
                if appended { appendSignal.raise() }
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
            let changed = state.withLock { state -> Bool in
                guard state.running, state.generation == generation, state.known[id] != nil else { return false }
                state.known[id] = list
                state.subscriptionsVersion += 1
                return true
            }
            if changed { appendSignal.raise() }
            return
        }
        let ticket = WriteTicket.onThisThread
        // A write the hub applies for a client runs on the client's thread (the server's worker): its entry's
        // estimate and line are made here, before readers can see it, rather than by the first reader (the server's
        // service thread, where a wide merge's line held every client). Under the store's lock, as the write was.
        let prepared = ticket == nil ? nil : HubLogEntry.Prepared(event, storeID: id)
        let appended = state.withLock { state -> Appended? in
            guard state.running, state.generation == generation, state.admit(event, of: id) else {
                return nil
            }
            let (entry, replaced) = state.log.append(time: .now, storeID: id, event: event)
            if let prepared { entry.adopt(prepared) }
            return Appended(
                entry: ticket == nil ? nil : entry, replaced: replaced,
                settle: state.log.unsettled >= Self.writerSettleThreshold)
        }
        // A refilled spare's old event (its change's patches, allocated on this thread) is freed here, on return,
        // outside the hub's lock.
        guard let appended else { return }
        if let ticket, let entry = appended.entry { ticket.offer(entry, from: self) }
        // Readers settle the log as they read; with none keeping up, a background queue does it once this many are
        // waiting, so that the bounds hold (give or take the threshold) and the writer never pays for it.
        if appended.settle { settleInBackground() }
        appendSignal.raise()
    }

    /// What the observer's append hands back from under the hub's lock.
    private struct Appended {
        /// The entry, when a write ticket is bound on this thread (see ``WriteTicket``).
        let entry: HubLogEntry?
        /// The event of the spare entry that was refilled, if one was.
        let replaced: HubLogEvent?
        /// Whether enough entries wait for ``settle()`` to queue it.
        let settle: Bool
    }

    /// How many entries may wait for ``settle()`` before the writer asks the background queue to settle them.
    static let writerSettleThreshold = 1024

    /// Settles the log on ``settleQueue`` unless a settle is already queued. The flag is read before it is taken:
    /// every append until the queued settle runs lands here, and a load leaves the flag's cache line shared.
    private func settleInBackground() {
        guard !settleQueued.load(ordering: .acquiring), !settleQueued.exchange(true, ordering: .acquiringAndReleasing)
        else { return }
        Self.settleQueue.async { [weak self] in
            guard let self else { return }
            self.settleQueued.store(false, ordering: .releasing)
            self.settle()
        }
    }

    /// Where logs are settled when no reader keeps up (one queue for every hub: settling is short and rare).
    private static let settleQueue = DispatchQueue(label: "keyscope.hub.settle", qos: .utility)

    // MARK: Settling

    /// Enforces the log's bounds: what the observer leaves out of the write path (each entry's byte estimate, the
    /// eviction of the oldest entries, keeping them as spares or releasing them). Cursors call it before they read,
    /// so it runs on the reader's thread; when ``writerSettleThreshold`` entries are waiting (no client keeps up),
    /// the writer queues it on a background queue. While it evicts, it has the freed memory given back to the
    /// system on that queue, at most every ``HubOptions/freedMemoryReturn``.
    func settle() {
        let (evicted, freed) = settling.withLock { _ -> (Bool, [HubLog.Evicted]) in
            let estimates = estimateUnsettled()
            guard !estimates.isEmpty else { return (false, []) }
            var retired = state.withLock { state in
                state.log.settle(estimates: estimates, options: options, keepAfter: state.pins.min())
            }
            guard !retired.isEmpty else { return (false, []) }
            // Entries nobody else holds (checked in place, so that no copy counts) become spares for the writer to
            // refill; their lines, made by readers, are freed here rather than by the writer.
            var spares: [HubLog.Evicted] = []
            spares.reserveCapacity(retired.count)
            for index in retired.indices where isKnownUniquelyReferenced(&retired[index].entry) {
                retired[index].entry.dropLine()
                spares.append(retired[index])
            }
            retired = []
            // Pairs with the release of the last other holder: what it read of an entry happens before a refill.
            if !spares.isEmpty { atomicMemoryFence(ordering: .acquiring) }
            return (true, state.withLock { $0.log.keepSpares(spares) })
        }
        // Evicted entries still held elsewhere, and spares beyond the limit, are released here, outside both locks:
        // freeing a wide entry takes a while, and every cursor read takes `settling`.
        _ = consume freed
        // The trim walks every arena's free memory: on the background queue, never on a reader's thread.
        if evicted, let freedMemory, freedMemory.isDue() { Self.settleQueue.async { FreedMemoryReturn.trim() } }
    }

    /// Records the estimated size of every entry not settled yet in the entry, and returns them in seq order (empty
    /// when every entry is settled). Called while settling, so none of them is evicted meanwhile: they are read
    /// unretained (the hub's lock is held only to copy pointers, and an entry that this settle evicts has no other
    /// holder here, so it can become a spare).
    private func estimateUnsettled() -> [Int] {
        let pending = state.withLock { state in
            state.log.unsettled == 0 ? [] : state.log.unretainedEntries(from: state.log.settledSeq + 1, limit: .max)
        }
        // The estimates walk the values: outside the state lock, so the writer never waits for them.
        var estimates: [Int] = []
        estimates.reserveCapacity(pending.count)
        var storeID: StoreID?
        var storeIDSize = 0
        for pointer in pending {
            // Not retained: the log holds every unsettled entry until this settle is over.
            unowned(unsafe) let entry = pointer.takeUnretainedValue()
            // Runs of one store are the rule: its id is measured once per run, not per entry.
            if entry.storeID != storeID {
                storeID = entry.storeID
                storeIDSize = JSONSizeEstimate.string(entry.storeID.description)
            }
            // Its writer may have recorded it already (``HubLogEntry/Prepared``).
            var size = entry.recordedEstimate
            if size < 0 {
                size = HubLogEntry.estimate(entry.event, storeIDSize: storeIDSize)
                entry.recordEstimate(size)
            }
            estimates.append(size)
        }
        return estimates
    }

    // MARK: Snapshots and subscriptions

    /// The state of every known store as of the newest seq, and their live subscriptions. Do not call it from
    /// inside a store observer or transaction (it reads each store inside a transaction of its own).
    public func snapshot() -> HubSnapshot {
        makeSnapshot().snapshot
    }

    /// The live subscriptions of every known store, ordered by store and id, with their current delivery counts
    /// (read from the stores: do not call from inside a store observer).
    public func subscriptions() -> [SubscriptionInfo] {
        let known = state.withLock { $0.known }
        return known.keys.sorted().flatMap { liveSubscriptions(of: $0) ?? known[$0] ?? [] }
    }

    func liveSubscriptions(of id: StoreID) -> [SubscriptionInfo]? {
        registry.store(id).map { $0.subscriptions.sorted { $0.id < $1.id } }
    }
}

extension InspectorHub.State {
    /// Whether an event belongs in the log, updating the known stores: events of stores the hub does not know are
    /// dropped (only possible while ``InspectorHub/start()`` is picking stores up: its read of such a store's state
    /// already includes them).
    mutating func admit(_ event: HubLogEvent, of id: StoreID) -> Bool {
        switch event {
        case .registered:
            if known[id] == nil { known[id] = [] }
            return true
        case .change, .reset:
            if id == lastAdmitted { return true }
            guard known[id] != nil else { return false }
            lastAdmitted = id
            return true
        case .removed:
            if id == lastAdmitted { lastAdmitted = nil }
            return known.removeValue(forKey: id) != nil
        }
    }
}
