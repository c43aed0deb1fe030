import KeyscopeCore
import Synchronization

/// Counts the changes of a demo's stores and remembers which stores showed activity, for the summary and for
/// ``DemoService/changes``.
///
/// ```swift
/// let tally = DemoTally(storeIDs: ids)
/// let token = registry.observe { tally.record($0) }
/// ```
final class DemoTally: Sendable {
    private struct State {
        var changes = 0
        var stores: [StoreID] = []
    }

    /// The stores counted; activity of any other store in the registry is ignored.
    let storeIDs: Set<StoreID>
    private let state = Mutex(State())

    init(storeIDs: Set<StoreID>) {
        self.storeIDs = storeIDs
    }

    /// Whether `activity` is about one of the counted stores.
    func counts(_ activity: StoreActivity) -> Bool {
        storeIDs.contains(activity.storeID)
    }

    /// The observation hook's half: counts a change, notes the store.
    func record(_ activity: StoreActivity) {
        guard counts(activity) else { return }
        state.withLock { state in
            if case .changed = activity { state.changes += 1 }
            if !state.stores.contains(activity.storeID) { state.stores.append(activity.storeID) }
        }
    }

    /// Changes counted so far (a transaction counts once).
    var changes: Int { state.withLock { $0.changes } }

    /// The ids of the stores that showed activity, in the order they first did.
    var stores: [String] { state.withLock { $0.stores.map(\.description) } }
}
