public import KeyscopeCore
import Synchronization

/// A live backend in the process, for tests of the core's live seam and of what the inspector shows: it records the
/// local changes each store tells it of, and lets the test bring in "remote" changes through the store's link.
///
/// ```swift
/// let backend = RecordingLiveBackend(initial: ["flag": true])
/// let store = DefaultStoreFactory(backend: backend).store(storage: .backend(namespace: "n"))
/// store.set("x", 1)                                  // backend.sync("n")?.local has the change
/// backend.sync("n")?.receive(origin: "shop-2", [.set("y", 2)])   // an ordinary change with origin shop-2
/// ```
public final class RecordingLiveBackend: LiveBackendAdapter {
    private let initial: [String: StoreValue]
    private let syncs = Mutex<[String: Sync]>([:])

    /// - Parameter initial: top-level keys every store starts with (applied before it is registered).
    public init(initial: [String: StoreValue] = [:]) {
        self.initial = initial
    }

    public func pull(namespace: String) throws -> PersistedState? { nil }
    public func push(_ state: PersistedState, namespace: String) throws {}

    public func startSync(namespace: String, version: SemanticVersion, link: BackendLink) -> any BackendSync {
        let sync = Sync(link: link)
        if !initial.isEmpty {
            link.applyRemote(origin: "initial") { _ in
                initial.sorted { $0.key < $1.key }.map { .set(StoreKeyPath(segments: [.key($0.key)]), $0.value) }
            }
        }
        syncs.withLock { $0[namespace] = sync }
        return sync
    }

    /// The sync of `namespace`, once a store opened it.
    public func sync(_ namespace: String) -> Sync? { syncs.withLock { $0[namespace] } }

    /// Every namespace a store started syncing, sorted.
    public var namespaces: [String] { syncs.withLock { $0.keys.sorted() } }

    /// One store's side: what it heard, and a way in for remote changes.
    public final class Sync: BackendSync {
        public let link: BackendLink
        private let state = Mutex<(local: [StoreChange], roots: [StoreValue], stops: Int, flushes: Int)>(
            ([], [], 0, 0))
        private let shown = Mutex(
            BackendStatus(kind: "test", location: "test://here", state: .connected, pending: 0))

        init(link: BackendLink) { self.link = link }

        /// The local changes the store reported, in order.
        public var local: [StoreChange] { state.withLock { $0.local } }
        /// The roots reported with them.
        public var roots: [StoreValue] { state.withLock { $0.roots } }
        public var stops: Int { state.withLock { $0.stops } }
        public var flushes: Int { state.withLock { $0.flushes } }

        /// Applies `operations` as a change from `origin`.
        @discardableResult
        public func receive(origin: String, _ operations: [StoreOperation]) -> StoreChange? {
            link.applyRemote(origin: origin) { _ in operations }
        }

        public func localChange(_ change: StoreChange, root: StoreValue) {
            state.withLock {
                $0.local.append(change)
                $0.roots.append(root)
            }
        }

        public func flush() { state.withLock { $0.flushes += 1 } }
        /// What the store shows of the backend (the test may set it).
        public var status: BackendStatus {
            get { shown.withLock { $0 } }
            set { shown.withLock { $0 = newValue } }
        }
        public func stop() { state.withLock { $0.stops += 1 } }
    }
}
