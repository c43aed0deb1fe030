import Logging
import Synchronization

/// The set of live stores and the one observation hook that hears every change of every one of them.
///
/// Stores made by ``DefaultStoreFactory`` join ``shared`` on their own; a store made by hand joins with
/// ``register(_:)``. The inspector observes the registry:
/// ```swift
/// let token = StoreRegistry.shared.observe { activity in
///     if case .changed(let change) = activity { log.append(change) }
/// }
/// ```
/// Observers are called synchronously, in each store's mutation order, while that store's write lock is held:
/// hand the activity off quickly and never write to the store from inside an observer (such a write is refused
/// with ``StoreError/Code/reentrant``). With no observer attached the hook costs one uncontended lock per write.
public final class StoreRegistry: Sendable {
    /// The process-wide registry that factories use unless given another one.
    public static let shared = StoreRegistry()

    private struct State {
        var stores: [StoreID: KeyValueStore] = [:]
        /// An array rather than a dictionary so that emitting copies a reference, not the entries.
        var observers: [(id: UInt64, call: @Sendable (StoreActivity) -> Void)] = []
        var nextObserverID: UInt64 = 1
    }

    private let state = Mutex(State())

    public init() {}

    /// Every registered store, ordered by id.
    public var stores: [any Store] {
        state.withLock { $0.stores.values.map { $0 as any Store } }.sorted { $0.id < $1.id }
    }

    /// The registered store with `id`, if any.
    public func store(_ id: StoreID) -> (any Store)? {
        state.withLock { $0.stores[id] }
    }

    /// Adds a store; its changes reach observers from now on. Registering a second store with the same id while
    /// the first is still registered fails (one store per id at a time).
    public func register(_ store: KeyValueStore) throws(StoreError) {
        let added = state.withLock { state -> Bool in
            guard state.stores[store.id] == nil else { return false }
            state.stores[store.id] = store
            return true
        }
        guard added else {
            throw StoreError(code: .badRequest, message: "a store with id \(store.id) is already registered")
        }
        store.attach(to: self)
    }

    /// Removes a store; observers hear `.removed`. Unknown ids are ignored.
    public func unregister(_ id: StoreID) {
        let removed = state.withLock { $0.stores.removeValue(forKey: id) }
        removed?.detach(from: self)
    }

    /// Attaches an observer for all activity of all registered stores. Keep the token as long as it should hear.
    public func observe(_ observer: @escaping @Sendable (StoreActivity) -> Void) -> ObservationToken {
        let id = state.withLock { state in
            let id = state.nextObserverID
            state.nextObserverID += 1
            state.observers.append((id, observer))
            return id
        }
        return ObservationToken { [weak self] in
            self?.state.withLock { $0.observers.removeAll { $0.id == id } }
        }
    }

    func emit(_ activity: StoreActivity) {
        let observers = state.withLock { $0.observers }
        for observer in observers { observer.call(activity) }
    }
}
