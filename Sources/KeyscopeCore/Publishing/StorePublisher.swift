import Foundation

/// A publisher of a store's values at one or more key paths: the current value first, then every real change
/// (a write of an equal value is not emitted). A subscriber that has no demand gets the latest value when it asks.
///
/// ```swift
/// let c = store.publisher(for: "cart", label: "CartView").sink { cart in render(cart) }
/// ```
/// Each subscription is listed in ``Store/subscriptions`` until it is cancelled.
public struct StorePublisher<Output: Sendable>: Publisher, Sendable {
    public typealias Failure = Never

    let store: KeyValueStore
    let keyPaths: [StoreKeyPath]
    let label: String?
    let transform: @Sendable ([StoreValue?]) -> Output

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        let subscription = StoreSubscription(subscriber: subscriber, transform: transform)
        subscriber.receive(subscription: subscription)
        // Register first, hand the entry to the subscription, then deliver the first value: so that the first
        // delivery is counted like every later one.
        guard let entry = store.addSubscription(keyPaths: keyPaths, label: label, sink: subscription) else {
            // Subscribing from inside one of the store's own observers cannot register (logged): end at once.
            subscriber.receive(completion: .finished)
            return
        }
        subscription.start(entry, in: store)
        store.deliverPending()
    }
}

/// One Combine subscription: conflates to the latest value while the subscriber has no demand, and delivers
/// from one thread at a time so that values never arrive out of order.
///
/// `@unchecked Sendable`: `fields` is only touched under `lock`, and the subscriber is only called by the single
/// thread that holds the `busy` flag. (An `NSLock` rather than `Mutex`: the subscriber is not `Sendable`.)
final class StoreSubscription<S: Subscriber>: Subscription, SubscriptionSink, @unchecked Sendable
where S.Failure == Never, S.Input: Sendable {
    private struct State {
        var subscriber: S?
        var demand: Subscribers.Demand = .none
        var pending: S.Input?
        var busy = false
        var entry: SubscriptionEntry?
        weak var store: KeyValueStore?
    }

    private let lock = NSLock()
    private var fields: State
    private let transform: @Sendable ([StoreValue?]) -> S.Input

    init(subscriber: S, transform: @escaping @Sendable ([StoreValue?]) -> S.Input) {
        self.fields = State(subscriber: subscriber)
        self.transform = transform
    }

    private func withState<R>(_ body: (inout State) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&fields)
    }

    func start(_ entry: SubscriptionEntry, in store: KeyValueStore) {
        let cancelled = withState { state -> Bool in
            guard state.subscriber != nil else { return true }
            state.entry = entry
            state.store = store
            return false
        }
        if cancelled { store.removeSubscription(entry.id) }
    }

    func deliver(_ values: [StoreValue?]) {
        let output = transform(values)
        withState { $0.pending = output }
        pump()
    }

    func request(_ demand: Subscribers.Demand) {
        withState { $0.demand += demand }
        pump()
    }

    func cancel() {
        // The entry holds this subscription as its sink: letting go of it here breaks that cycle, so a cancelled
        // subscription (a view that went away) leaves nothing behind.
        let (entry, store) = withState { state in
            state.subscriber = nil
            state.pending = nil
            defer { state.entry = nil }
            return (state.entry, state.store)
        }
        if let entry, let store { store.removeSubscription(entry.id) }
    }

    private func pump() {
        while true {
            let next = withState { state -> (S, S.Input, SubscriptionEntry?)? in
                guard !state.busy, state.demand > .none, let subscriber = state.subscriber,
                    let value = state.pending
                else { return nil }
                state.busy = true
                state.demand -= 1
                state.pending = nil
                return (subscriber, value, state.entry)
            }
            guard let (subscriber, value, entry) = next else { return }
            entry?.countDelivery()
            let more = subscriber.receive(value)
            withState {
                $0.demand += more
                $0.busy = false
            }
        }
    }
}
