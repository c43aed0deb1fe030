import KeyscopeCore
import Logging

/// The hub's own copy of every known store's state, kept current by the observer so that a snapshot consistent with
/// a `seq` can be built without touching any store's lock.
struct HubMirror {
    struct Store {
        var version: SemanticVersion
        var root: StoreValue
        /// The list the last `.subscriptionsChanged` carried (the live list is read from the store when asked).
        var subscriptions: [SubscriptionInfo] = []
    }

    private(set) var stores: [StoreID: Store] = [:]

    func contains(_ id: StoreID) -> Bool { stores[id] != nil }

    /// Updates the copy for one event and says whether the event belongs in the log: events of stores the hub does
    /// not know are dropped (only possible while ``InspectorHub/start()`` is picking stores up: its read of such a
    /// store's state already includes them). A `registered` of a known store replaces its state.
    mutating func apply(_ event: HubLogEvent, to id: StoreID) -> Bool {
        switch event {
        case .registered(let version, let root):
            stores[id] = Store(version: version, root: root, subscriptions: stores[id]?.subscriptions ?? [])
            return true
        case .change(let change):
            guard stores[id] != nil else { return false }
            // Patch by patch, in place: a whole-change copy would copy the root's top-level object every time.
            for patch in change.patches {
                do throws(StoreError) {
                    try stores[id]!.root.apply(patch: patch)
                } catch {
                    InspectorLog.hub.error(
                        "the hub's copy of a store no longer matches its changes; snapshots of it are wrong",
                        metadata: ["store": "\(id)", "patch": "\(patch)", "error": "\(error)"])
                    break
                }
            }
            return true
        case .reset(let version):
            guard stores[id] != nil else { return false }
            stores[id]!.root = .emptyObject
            stores[id]!.version = version
            return true
        case .removed:
            return stores.removeValue(forKey: id) != nil
        }
    }

    /// Records a store's new subscription list; false when the store is unknown.
    mutating func setSubscriptions(_ list: [SubscriptionInfo], of id: StoreID) -> Bool {
        guard stores[id] != nil else { return false }
        stores[id]!.subscriptions = list
        return true
    }

    mutating func removeAll() { stores = [:] }
}

/// The inspector module's loggers (swift-log).
enum InspectorLog {
    static let hub = Logger(label: "keyscope.inspector")
}
