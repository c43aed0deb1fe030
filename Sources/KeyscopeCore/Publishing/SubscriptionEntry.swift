import Foundation
import Synchronization

/// Receives the values of one subscription, in order, outside any store lock.
protocol SubscriptionSink: AnyObject, Sendable {
    /// `values` are aligned with the subscription's paths (`nil` where nothing is there).
    func deliver(_ values: [StoreValue?])
}

/// One subscription's bookkeeping inside its store: the paths, what it last heard, who hears it.
final class SubscriptionEntry: Sendable {
    let id: UInt64
    let storeID: StoreID
    let keyPaths: [StoreKeyPath]
    let label: String?
    let since: Date
    let sink: any SubscriptionSink
    /// The values last queued for delivery; only read and written under the owning store's lock, which is what
    /// makes this `nonisolated(unsafe)` storage safe.
    nonisolated(unsafe) var lastValues: [StoreValue?]
    private let deliveryCount = Atomic<Int>(0)

    private static let nextID = Atomic<UInt64>(1)

    init(
        storeID: StoreID, keyPaths: [StoreKeyPath], label: String?, sink: any SubscriptionSink,
        initial: [StoreValue?]
    ) {
        self.id = Self.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        self.storeID = storeID
        self.keyPaths = keyPaths
        self.label = label
        self.since = Date()
        self.sink = sink
        self.lastValues = initial
    }

    var deliveries: Int { deliveryCount.load(ordering: .relaxed) }

    func countDelivery() { deliveryCount.add(1, ordering: .relaxed) }

    var info: SubscriptionInfo {
        SubscriptionInfo(
            id: id, storeID: storeID, keyPaths: keyPaths, label: label, since: since,
            deliveries: deliveries)
    }
}

/// Delivers subscription values in the order the store queued them, from whichever thread gets there first,
/// never while holding the store's lock (so a subscriber may write to the store it listens to).
final class DeliveryQueue: Sendable {
    struct Item {
        let entry: SubscriptionEntry
        let values: [StoreValue?]
    }

    private struct State {
        var pending: [Item] = []
        var head = 0
        var draining = false
    }

    private let state = Mutex(State())

    /// Queues items; call while holding the store lock so that the queue order is the mutation order.
    func enqueue(_ items: [Item]) {
        guard !items.isEmpty else { return }  // most writes have no subscriber to tell: skip the lock
        state.withLock { $0.pending.append(contentsOf: items) }
    }

    /// Delivers everything queued unless another call up the stack or on another thread is already doing so.
    func drain() {
        let claimed = state.withLock { state -> Bool in
            if state.draining || state.head == state.pending.count { return false }
            state.draining = true
            return true
        }
        guard claimed else { return }
        while let item = next() {
            item.entry.sink.deliver(item.values)
        }
    }

    private func next() -> Item? {
        state.withLock { state -> Item? in
            guard state.head < state.pending.count else {
                state.pending.removeAll(keepingCapacity: state.pending.count <= 64)
                state.head = 0
                state.draining = false
                return nil
            }
            let item = state.pending[state.head]
            state.head += 1
            return item
        }
    }
}
