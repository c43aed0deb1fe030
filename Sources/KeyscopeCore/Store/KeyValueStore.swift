public import Foundation
import Logging
import Synchronization

/// The store implementation: an in-memory tree, optionally persisted, observable by the inspector.
///
/// Get stores from a ``DefaultStoreFactory`` (one per scope and storage); make one by hand for tests:
/// ```swift
/// let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory))
/// store.set("flags.beta", true)
/// ```
public final class KeyValueStore: Store {
    public let id: StoreID

    struct State {
        var root: StoreValue
        var version: SemanticVersion
        /// Weak: the registry holds its stores, so a strong reference back would keep a dropped registry and
        /// every store in it alive for good (found by the request fuzzer's leak check).
        weak var registry: StoreRegistry?
        var removed = false
        var subscriptions = SubscriptionIndex()
        /// The live backend syncing this store (see ``LiveBackendAdapter``): told of each local change.
        var backendSync: (any BackendSync)?

        /// Whether anyone besides its writer hears of a change: an observer (through the registry), the live
        /// backend, or a subscription.
        var isHeard: Bool { registry != nil || backendSync != nil || !subscriptions.isEmpty }
    }

    let state: Mutex<State>
    /// The thread that holds `state`'s lock while it may call out (observers, transaction bodies), so that a call
    /// back into the store from that thread is refused instead of deadlocking.
    let holder = Atomic<UInt>(0)
    /// The version, readable from anywhere (also from inside an observer); `State.version` is its twin under the lock.
    private let versionBox: Mutex<SemanticVersion>
    let deliveriesQueue = DeliveryQueue()
    let persistence: PersistenceWriter?
    /// Top-level keys the storage keeps for itself (empty for most storages).
    let reservedRootKeys: Set<String>
    /// Accepts or refuses each change before it is committed (see ``StoreCommitGate``).
    let gate: (any StoreCommitGate)?
    /// `gate != nil`, kept apart: every write asks, and a copy of the optional existential costs more than the test.
    let isGated: Bool

    /// A store with `root` as its state (an object) at `version`.
    public convenience init(id: StoreID, version: SemanticVersion = .initial, root: [String: StoreValue] = [:]) {
        self.init(id: id, version: version, root: .object(root), persistence: nil)
    }

    /// A store with `root` as its state whose every change `gate` accepts (or refuses) before it is committed.
    public convenience init(
        id: StoreID, version: SemanticVersion = .initial, root: [String: StoreValue] = [:],
        gate: any StoreCommitGate
    ) {
        self.init(id: id, version: version, root: .object(root), persistence: nil, gate: gate)
    }

    init(
        id: StoreID, version: SemanticVersion, root: StoreValue, persistence: (any PersistenceDriver)?,
        gate: (any StoreCommitGate)? = nil
    ) {
        self.id = id
        self.gate = gate
        self.isGated = gate != nil
        self.state = Mutex(State(root: root, version: version))
        self.versionBox = Mutex(version)
        self.persistence = persistence.map { PersistenceWriter(storeID: id, driver: $0) }
        self.reservedRootKeys = persistence?.reservedRootKeys ?? []
        self.persistence?.source = self
    }

    deinit {
        state.withLock { $0.backendSync }?.stop()
        if let persistence {
            let (root, version) = state.withLock { ($0.root, $0.version) }
            persistence.flush(final: PersistedState(root: root, version: version))
        }
    }

    public var version: SemanticVersion { versionBox.withLock { $0 } }

    public func snapshot() -> StoreValue {
        guard notReentrant("snapshot") else { return .emptyObject }
        return state.withLock { $0.root }
    }

    public func get(_ path: StoreKeyPath) -> StoreValue? {
        guard path.parseError == nil else {
            KeyscopeLog.store.error("read refused", metadata: ["store": "\(id)", "error": "\(path.parseError!)"])
            return nil
        }
        guard notReentrant("read") else { return nil }
        return state.withLock { $0.root[path] }
    }

    /// The state and version, read together.
    public func snapshotWithVersion() -> (root: StoreValue, version: SemanticVersion) {
        state.withLock { ($0.root, $0.version) }
    }

    /// Runs `body` under the state lock with this thread marked as the holder: every section that calls out to
    /// observers or user code goes through here.
    /// `me` is the calling thread's id, for a caller that has it already.
    func exclusive<R, E: Error>(as me: UInt = currentThreadID(), _ body: (inout State) throws(E) -> R) throws(E) -> R {
        try state.withLock { state throws(E) in
            holder.store(me, ordering: .releasing)
            defer { holder.store(0, ordering: .releasing) }
            return try body(&state)
        }
    }

    func exclusiveNoThrow<R>(_ body: (inout State) -> R) -> R {
        exclusive(body)
    }

    /// Whether the calling thread is inside `exclusive` (an observer or a transaction body calling back).
    var isReentrant: Bool { holder.load(ordering: .acquiring) == currentThreadID() }

    /// False (and logged) when called on the thread that is inside this store's write lock.
    func notReentrant(_ what: String) -> Bool {
        guard isReentrant else { return true }
        KeyscopeLog.store.error(
            "\(what) from inside the store's own transaction or observer refused; use the transaction's `tx`",
            metadata: ["store": "\(id)"])
        return false
    }

    // MARK: Lifecycle (factory and registry)

    func attach(to registry: StoreRegistry) {
        exclusiveNoThrow { state in
            state.registry = registry
            registry.emit(.registered(id, version: state.version, root: state.root))
        }
    }

    func detach(from registry: StoreRegistry) {
        exclusiveNoThrow { state in
            guard state.registry === registry else { return }
            registry.emit(.removed(id))
            state.registry = nil
        }
    }

    /// Drops the data (major version change): the root becomes `{}`; subscribers and observers hear it.
    func reset(to version: SemanticVersion) {
        exclusiveNoThrow { state in
            let old = state.root
            state.root = .emptyObject
            state.version = version
            versionBox.withLock { $0 = version }
            let patch = StorePatch(op: .set, keyPath: .root, oldValue: old, newValue: .emptyObject)
            deliveriesQueue.enqueue(state.subscriptions.changedValues(for: [patch], in: state.root))
            state.registry?.emit(.reset(id, version: version))
        }
        deliveriesQueue.drain()
        persistence?.markDirty()
    }

    /// Ends the store: later writes are refused with ``StoreError/Code/storeRemoved``.
    func markRemoved() {
        let sync = state.withLock { state -> (any BackendSync)? in
            state.removed = true
            return state.backendSync
        }
        sync?.stop()
    }

    /// Writes pending data to the storage now and waits for it (no-op for memory stores; bounded for a live
    /// backend, which may be unreachable).
    public func flush() {
        persistence?.flush()
        state.withLock { $0.backendSync }?.flush()
    }

    // MARK: Live backends

    /// How the live backend syncing this store is doing (`nil` for other storages).
    public var backendStatus: BackendStatus? {
        state.withLock { $0.backendSync }?.status
    }

    /// Runs `body` with the root under the lock (see ``BackendLink/read(_:)``).
    func read<R>(_ body: (StoreValue) -> R) -> R {
        state.withLock { body($0.root) }
    }

    func attachBackendSync(_ sync: any BackendSync) {
        state.withLock { $0.backendSync = sync }
    }

}

/// An id for the calling thread, for reentrancy checks.
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}

extension KeyValueStore {
    /// Records a new version without touching the data (minor and patch changes).
    func setVersion(_ version: SemanticVersion) {
        state.withLock { state in
            state.version = version
            versionBox.withLock { $0 = version }
        }
        persistence?.markDirty()
    }
}
