import Foundation
import Logging
import Synchronization

/// Makes stores: one instance per (scope, storage), registered with a ``StoreRegistry`` so the inspector sees them.
///
/// ```swift
/// let factory = DefaultStoreFactory(version: "2.1.0")
/// let prefs = factory.store(scope: .app, storage: .userPrefs(suite: "com.shop"))
/// let checkout = factory.store(scope: .scenario(id: "checkout"), storage: .memory)
/// factory.endScenario("checkout")     // its memory stores are gone
/// ```
/// Persisted data carries the version it was written with. When a store is opened (or ``updateVersion(_:)`` is
/// called) and the major version differs, the data is dropped and the store starts from `{}`; a minor or patch
/// difference keeps the data and records the new version.
public final class DefaultStoreFactory: Sendable {
    private struct State {
        var version: SemanticVersion
        var stores: [StoreID: KeyValueStore] = [:]
    }

    private let state: Mutex<State>
    public let registry: StoreRegistry
    private let backend: (any BackendAdapter)?

    /// - Parameters:
    ///   - version: the version of the data's shape for every store this factory makes.
    ///   - registry: where the stores are registered (the inspector observes ``StoreRegistry/shared``).
    ///   - backend: the adapter for `.backend(namespace:)` storage; without one such stores stay in memory.
    public init(
        version: SemanticVersion = .initial, registry: StoreRegistry = .shared, backend: (any BackendAdapter)? = nil
    ) {
        self.state = Mutex(State(version: version))
        self.registry = registry
        self.backend = backend
    }

    /// The current data version.
    public var version: SemanticVersion { state.withLock { $0.version } }

    /// The store for `scope` and `storage`, made (and its data loaded) on first use.
    public func store(scope: Scope = .app, storage: Storage) -> KeyValueStore {
        let id = StoreID(scope: scope, storage: storage)
        let (store, isNew) = state.withLock { state -> (KeyValueStore, Bool) in
            if let existing = state.stores[id] { return (existing, false) }
            // One store per id at a time, also across factories that share a registry.
            if let registered = registry.store(id) as? KeyValueStore {
                state.stores[id] = registered
                return (registered, false)
            }
            let store = open(id, version: state.version)
            state.stores[id] = store
            return (store, true)
        }
        // Registered outside the factory's lock: observers hear `.registered` and may call the factory back.
        if isNew {
            do {
                try registry.register(store)
            } catch {
                KeyscopeLog.factory.error(
                    "could not register store", metadata: ["store": "\(id)", "error": "\(error)"])
            }
        }
        return store
    }

    /// Every store this factory has made and not dropped.
    public var stores: [KeyValueStore] {
        state.withLock { Array($0.stores.values) }.sorted { $0.id < $1.id }
    }

    /// Empties every store of `scope` (one change per store, so it is logged and can be reverted).
    public func resetStores(for scope: Scope) {
        for store in stores where store.scope == scope {
            do {
                try store.replaceAll(with: [:])
            } catch {
                KeyscopeLog.factory.error("reset failed", metadata: ["store": "\(store.id)", "error": "\(error)"])
            }
        }
    }

    /// Ends a scenario: its stores leave the factory and the registry (persisted data stays where it is; memory
    /// data is gone). Writes to the dropped instances are refused; asking again makes fresh stores.
    public func endScenario(_ id: String) {
        let dropped = state.withLock { state -> [KeyValueStore] in
            let ids = state.stores.keys.filter { $0.scope == .scenario(id: id) }
            return ids.compactMap { state.stores.removeValue(forKey: $0) }
        }
        for store in dropped {
            store.flush()
            store.markRemoved()
            registry.unregister(store.id)
        }
    }

    /// Changes the data version. A major change resets every live store (its data is dropped, observers hear
    /// `.reset`); a minor or patch change only records the new version.
    public func updateVersion(_ version: SemanticVersion) {
        let (old, live) = state.withLock { state -> (SemanticVersion, [KeyValueStore]) in
            let old = state.version
            state.version = version
            return (old, Array(state.stores.values))
        }
        for store in live {
            if old.major != version.major {
                store.reset(to: version)
            } else {
                store.setVersion(version)
            }
        }
    }

    /// Makes a store and loads its data, dropping it on a major version difference.
    private func open(_ id: StoreID, version: SemanticVersion) -> KeyValueStore {
        if case .backend = id.storage, let live = backend as? any LiveBackendAdapter {
            // A live backend loads, pushes and pulls by itself; the store only tells it of local changes.
            let store = KeyValueStore(id: id, version: version, root: .emptyObject, persistence: nil)
            let sync = live.startSync(namespace: Self.backendNamespace(id), version: version, link: BackendLink(store))
            store.attachBackendSync(sync)
            return store
        }
        guard let driver = driver(for: id) else {
            return KeyValueStore(id: id, version: version, root: .emptyObject, persistence: nil)
        }
        var root = StoreValue.emptyObject
        var needsSave = true
        do {
            if let saved = try driver.load() {
                try Self.checkDepth(saved.root, of: id)
                if saved.version.major == version.major {
                    root = saved.root
                    needsSave = saved.version != version
                } else {
                    KeyscopeLog.factory.notice(
                        "dropped data after a major version change",
                        metadata: ["store": "\(id)", "from": "\(saved.version)", "to": "\(version)"])
                }
            }
        } catch {
            // Never overwrite data that could not be read (or that belongs to another store): keep this store in
            // memory and leave the data where it is for a person to look at.
            KeyscopeLog.factory.error(
                "could not load store data; the store keeps its data in memory and leaves the stored data untouched",
                metadata: ["store": "\(id)", "error": "\(error)"])
            return KeyValueStore(id: id, version: version, root: .emptyObject, persistence: nil)
        }
        let store = KeyValueStore(id: id, version: version, root: root, persistence: driver)
        if needsSave {
            do {
                try store.persistence?.saveNow(PersistedState(root: root, version: version))
            } catch {
                KeyscopeLog.factory.error(
                    "could not save store data", metadata: ["store": "\(id)", "error": "\(error)"])
            }
        }
        return store
    }

    /// Refuses saved data deeper than a store may hold (written before the limit, or by hand), which the tree
    /// walks are not sized for.
    private static func checkDepth(_ root: StoreValue, of id: StoreID) throws(StoreError) {
        guard root.depth(limit: StoreLimits.maxDepth) > StoreLimits.maxDepth else { return }
        throw StoreError(
            code: .persistence,
            message: "the saved data of \(id) nests deeper than \(StoreLimits.maxDepth) levels, more than a store "
                + "may hold; flatten it (or move it away) and start again")
    }

    private func driver(for id: StoreID) -> (any PersistenceDriver)? {
        switch id.storage {
        case .memory:
            return nil
        case .secrets:
            // A secret-store mirror's data lives in the secret store, which KeyscopePreferences reads and writes;
            // it is never handed to a backend adapter (docs/store.md), so here it stays in memory.
            return nil
        case .file(let url):
            return FilePersistence(url: url)
        case .userPrefs(let suite):
            return UserDefaultsPersistence(suiteName: Self.suiteName(suite, id.scope), storeID: id)
        case .backend:
            guard let backend else {
                KeyscopeLog.factory.warning(
                    "no backend adapter given; the store stays in memory",
                    metadata: ["store": "\(id)"])
                return nil
            }
            return BackendPersistence(adapter: backend, namespace: Self.backendNamespace(id))
        }
    }

    /// The adapter's namespace for a backend store: the namespace for app stores, `<scope>/<namespace>` for others.
    /// Namespaces never contain "/", so the two cannot collide.
    static func backendNamespace(_ id: StoreID) -> String {
        guard case .backend(let namespace) = id.storage else { return id.description }
        return id.scope == .app ? namespace : "\(id.scope)/\(namespace)"
    }

    /// The UserDefaults suite of a `userPrefs` store: the given suite (or `keyscope`), per scenario apart. A name
    /// that happens to equal another store's suite is caught by the owner entry (see UserDefaultsPersistence).
    static func suiteName(_ suite: String?, _ scope: Scope) -> String {
        let base = suite ?? "keyscope"
        switch scope {
        case .app: return base
        case .scenario(let id): return "\(base).scenario-\(id)"
        }
    }
}
