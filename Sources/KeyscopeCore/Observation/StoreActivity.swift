/// Something that happened to a store, as the observation hook (and so the inspector) hears it.
public enum StoreActivity: Sendable {
    /// A store joined a registry, with its state at that moment.
    case registered(StoreID, version: SemanticVersion, root: StoreValue)
    /// A write or a transaction changed a store.
    case changed(StoreChange)
    /// A major-version bump dropped the store's data: its root is now `{}` and its version `version`.
    case reset(StoreID, version: SemanticVersion)
    /// The store left its registry (a scenario ended, or it was unregistered by hand).
    case removed(StoreID)
    /// A subscription to the store started or was cancelled; the list is the store's subscriptions now.
    case subscriptionsChanged(StoreID, [SubscriptionInfo])

    /// The store the activity is about.
    public var storeID: StoreID {
        switch self {
        case .registered(let id, _, _), .reset(let id, _), .removed(let id), .subscriptionsChanged(let id, _): id
        case .changed(let change): change.storeID
        }
    }
}

/// A handle that keeps an observer attached; ``cancel()`` detaches it (so does releasing the token).
public final class ObservationToken: Sendable {
    private let onCancel: @Sendable () -> Void

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Detaches the observer: activity emitted after this returns is not delivered to it. A call that another
    /// thread had already started may still be running when `cancel()` returns. Safe to call more than once.
    public func cancel() { onCancel() }

    deinit { onCancel() }
}
