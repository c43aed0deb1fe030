import KeyscopeCore
import Synchronization

extension InspectorHub {
    /// ``subscriptions()``, except that a store whose lock another thread holds right now (a long write) is not waited
    /// for: its list is the one its last subscription change reported, with the delivery counts of then (the
    /// deliveries timer marks the list changed again once they moved). For the server's service thread
    /// (``HubCursor/subscriptionsUpdate()``), which a client's wide write on the server's worker must not hold up.
    func subscriptionsWithoutWaiting() -> [SubscriptionInfo] {
        let known = state.withLock { $0.known }
        return known.keys.sorted().flatMap { id -> [SubscriptionInfo] in
            let store = registry.store(id)
            let live = (store as? KeyValueStore).map { $0.subscriptionsIfAvailable } ?? liveSubscriptions(of: id)
            return live ?? known[id] ?? []
        }
    }
}
