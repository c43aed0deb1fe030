import Dispatch
import Logging
import Synchronization

extension KeyValueStore {
    public func publisher(for path: StoreKeyPath, label: String?) -> StorePublisher<StoreValue?> {
        StorePublisher(store: self, keyPaths: [path], label: label) { $0[0] }
    }

    public func publisher(for paths: Set<StoreKeyPath>, label: String?)
        -> StorePublisher<[StoreKeyPath: StoreValue]>
    {
        let ordered = paths.sorted()
        return StorePublisher(store: self, keyPaths: ordered, label: label) { values in
            var present: [StoreKeyPath: StoreValue] = [:]
            for (path, value) in zip(ordered, values) { present[path] = value }
            return present
        }
    }

    public var subscriptions: [SubscriptionInfo] {
        guard notReentrant("reading subscriptions") else { return [] }
        return state.withLock { $0.subscriptions.entries.values.map(\.info) }.sorted { $0.id < $1.id }
    }

    /// ``subscriptions``, or `nil` at once while another thread holds the store's lock (a long write, say): for a
    /// reader that must not wait, such as the inspector's service thread.
    public var subscriptionsIfAvailable: [SubscriptionInfo]? {
        guard notReentrant("reading subscriptions") else { return [] }
        let infos = state.withLockIfAvailable { $0.subscriptions.entries.values.map(\.info) }
        return infos?.sorted { $0.id < $1.id }
    }

    /// Registers a subscription and queues its first (current) values; ``deliverPending()`` sends them.
    func addSubscription(keyPaths: [StoreKeyPath], label: String?, sink: any SubscriptionSink)
        -> SubscriptionEntry?
    {
        guard notReentrant("subscribing") else { return nil }
        for path in keyPaths where path.parseError != nil {
            KeyscopeLog.store.error(
                "subscription to a path that does not parse; it will only ever see nothing",
                metadata: ["store": "\(id)", "error": "\(path.parseError!)"])
        }
        let entry = exclusiveNoThrow { state in
            let initial = keyPaths.map { state.root[$0] }
            let entry = SubscriptionEntry(storeID: id, keyPaths: keyPaths, label: label, sink: sink, initial: initial)
            state.subscriptions.insert(entry)
            deliveriesQueue.enqueue([DeliveryQueue.Item(entry: entry, values: initial)])
            announceSubscriptions(state)
            return entry
        }
        return entry
    }

    /// Delivers queued subscription values (outside the store lock).
    func deliverPending() {
        deliveriesQueue.drain()
    }

    func removeSubscription(_ id: UInt64) {
        guard !isReentrant else {
            // Cancelled from inside an observer: the lock is held up the stack, so remove it once it is released.
            DispatchQueue.global().async { self.removeSubscription(id) }
            return
        }
        exclusiveNoThrow { state in
            if state.subscriptions.remove(id) { announceSubscriptions(state) }
        }
    }

    private func announceSubscriptions(_ state: State) {
        state.registry?.emit(.subscriptionsChanged(id, state.subscriptions.entries.values.map(\.info)))
    }
}
