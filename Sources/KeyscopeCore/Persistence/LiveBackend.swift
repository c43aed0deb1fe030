import Logging
import Synchronization

/// A backend that keeps stores live: it hears every local change as it happens and brings changes made elsewhere
/// (by other instances of the service) into the store, as ordinary changes that carry their `origin`.
///
/// ```swift
/// let factory = DefaultStoreFactory(backend: RedisBackend(url: "redis://127.0.0.1:6379"))   // KeyscopeRedis
/// let flags = factory.store(storage: .backend(namespace: "flags"))   // synced with every other instance
/// ```
/// The factory calls ``startSync(namespace:version:link:)`` once per store instead of `pull`/`push`: the adapter
/// then owns loading (through the link), pushing and pulling. A store never waits for it.
public protocol LiveBackendAdapter: BackendAdapter {
    /// Starts syncing the store behind `link` with `namespace`, for data of `version`.
    ///
    /// Called when the store is opened, before it is registered, on the thread that asked the factory (under the
    /// factory's lock): it may wait a short, bounded time for the current data and apply it through
    /// ``BackendLink/applyRemote(origin:_:)``, so a store opened while the backend is reachable starts with it.
    func startSync(namespace: String, version: SemanticVersion, link: BackendLink) -> any BackendSync
}

/// The adapter's side of one synced store.
public protocol BackendSync: AnyObject, Sendable {
    /// A change made in this process (never one that came through ``BackendLink/applyRemote(origin:_:)``), with the
    /// store's root after it. Called under the store's lock, in mutation order: note it and return at once (never
    /// block, never call the store). Do not keep `root`: a reference to it makes the store's next write copy it
    /// (read values later with ``BackendLink/read(_:)``).
    func localChange(_ change: StoreChange, root: StoreValue)
    /// Waits a bounded time for the local changes made so far to reach the backend (``KeyValueStore/flush()``).
    func flush()
    /// Where the data lives and how syncing goes, for the inspector's snapshot.
    var status: BackendStatus { get }
    /// Stops syncing: the store is going away.
    func stop()
}

/// How a live backend is doing: docs/fleet.md's `"backend": {"redis": "redis://host:port/db", "state": …, "pending": N}`.
public struct BackendStatus: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        /// Reached, and caught up.
        case connected
        /// Not reached yet since the start.
        case connecting
        /// Reached before, unreachable now (reconnecting by itself).
        case disconnected
    }

    /// The kind of backend, the key its location is shown under (`"redis"`).
    public var kind: String
    /// Where, without credentials (`redis://host:port/db`).
    public var location: String
    public var state: State
    /// Local changes not yet in the backend.
    public var pending: Int

    public init(kind: String, location: String, state: State, pending: Int) {
        self.kind = kind
        self.location = location
        self.state = state
        self.pending = pending
    }

    /// `{"<kind>": location, "state": …, "pending": N}`.
    public var jsonObject: StoreValue {
        .object([kind: .string(location), "state": .string(state.rawValue), "pending": .integer(Int64(pending))])
    }
}

/// How a live backend reaches the store it syncs. It holds the store weakly: syncing never keeps a store alive.
public final class BackendLink: Sendable {
    fileprivate let store: Mutex<WeakStore>
    /// The store's id.
    public let storeID: StoreID

    fileprivate struct WeakStore: @unchecked Sendable {
        weak var store: KeyValueStore?
    }

    init(_ store: KeyValueStore) {
        self.store = Mutex(WeakStore(store: store))
        self.storeID = store.id
    }

    /// Whether the store still exists.
    public var isAlive: Bool { store.withLock { $0.store != nil } }

    /// Applies changes that came from elsewhere as one ordinary change carrying `origin` (observers, the inspector's
    /// log and publishers hear it), never announced back to the adapter as a local change.
    ///
    /// `build` runs under the store's write lock with the current root and returns the operations to apply; no local
    /// write can come between what it saw and what is applied. Return `[]` to change nothing. It must not call the
    /// store. Returns the change (`nil` when nothing changed or the store is gone); operations that fail (a path
    /// that no longer fits) are logged and change nothing.
    @discardableResult
    public func applyRemote(origin: String, _ build: (StoreValue) -> [StoreOperation]) -> StoreChange? {
        guard let target = store.withLock({ $0.store }) else { return nil }
        do {
            return try target.applyRemote(origin: origin, build)
        } catch {
            KeyscopeLog.persistence.error(
                "a change from another instance could not be applied",
                metadata: ["store": "\(storeID)", "origin": "\(origin)", "error": "\(error)"])
            return nil
        }
    }
}

extension BackendLink {
    /// Runs `body` with the store's current root under its write lock (no local change can happen meanwhile):
    /// take what to push, and the values, together. Keep only what you need of the root. `nil` when the store is
    /// gone. `body` must not call the store.
    public func read<R>(_ body: (StoreValue) -> R) -> R? {
        guard let target = store.withLock({ $0.store }) else { return nil }
        return target.read(body)
    }
}

extension StoreChange {
    /// The top-level keys the change touched (every key of the old and new root for a write to the root itself).
    public var topLevelKeys: Set<String> {
        var keys = Set<String>()
        for patch in patches {
            switch patch.keyPath.segments.first {
            case .key(let key)?:
                keys.insert(key)
            case .index?:
                break  // the root is an object: no patch starts with an index
            case nil:
                keys.formUnion(patch.oldValue?.objectValue?.keys ?? [:].keys)
                keys.formUnion(patch.newValue?.objectValue?.keys ?? [:].keys)
            }
        }
        return keys
    }
}
