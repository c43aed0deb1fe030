import Foundation
import KeyscopeCore
import Synchronization
import Testing

/// Per-key-path publishers: re-render semantics and the observable subscription list.
@Suite struct SubscriptionTests {
    func store(_ root: [String: StoreValue] = [:]) -> KeyValueStore {
        KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: root)
    }

    @Test func currentValueFirstThenOnlyRealChanges() {
        let store = store(["cart": ["total": 1]])
        let heard = Heard<StoreValue?>()
        let c = store.publisher(for: "cart").sink { heard.append($0) }
        store.set("cart.total", 2)
        store.set("cart.total", 2)  // equal: no emission
        store.set("items", [1])  // unrelated: no emission
        _ = try? store.replaceAll(with: ["cart": ["total": 3]])  // root write reaches cart
        store.set("cart", ["total": 3])  // equal value again
        store.remove("cart")
        #expect(heard.values == [["total": 1], ["total": 2], ["total": 3], nil])
        c.cancel()
    }

    @Test func aSubscriberToAChildHearsParentWritesThatChangeIt() {
        let store = store(["cart": ["total": 1, "note": "x"]])
        let heard = Heard<StoreValue?>()
        let c = store.publisher(for: "cart.total").sink { heard.append($0) }
        store.set("cart.note", "y")  // sibling: no emission
        store.set("cart", ["total": 5])
        store.merge("cart", ["total": 6])
        #expect(heard.values == [1, 5, 6])
        c.cancel()
    }

    @Test func subscriptionsAreListedWithLabelsAndDeliveriesAndDisappearOnCancel() throws {
        let store = store(["a": 1])
        let c1 = store.publisher(for: "a", label: "Header").sink { _ in }
        let c2 = store.publisher(for: ["a", "b"], label: "Pair").sink { _ in }
        store.set("a", 2)
        let list = store.subscriptions
        #expect(list.count == 2)
        let header = try #require(list.first { $0.label == "Header" })
        #expect(header.keyPaths == ["a"])
        #expect(header.storeID == store.id)
        #expect(header.deliveries == 2)
        #expect(header.since <= Date())
        #expect(list.first { $0.label == "Pair" }?.keyPaths.count == 2)
        c1.cancel()
        #expect(store.subscriptions.map(\.label) == ["Pair"])
        c2.cancel()
        #expect(store.subscriptions.isEmpty)
    }

    @Test func releasingTheCancellableCancels() {
        let store = store()
        do {
            let c = store.publisher(for: "a").sink { _ in }
            #expect(store.subscriptions.count == 1)
            _ = c
        }
        #expect(store.subscriptions.isEmpty)
    }

    @Test func multiPathPublisherEmitsPresentValuesWhenAnyChanges() {
        let store = store(["a": 1])
        let heard = Heard<[StoreKeyPath: StoreValue]>()
        let c = store.publisher(for: ["a", "b"]).sink { heard.append($0) }
        store.set("b", 2)
        store.set("c", 3)
        store.set("a", 1)
        #expect(heard.values == [["a": 1], ["a": 1, "b": 2]])
        c.cancel()
    }

    @Test func aSubscriberWithoutDemandGetsTheLatestValueWhenItAsks() {
        let store = store(["n": 0])
        let subscriber = ManualSubscriber()
        store.publisher(for: "n").subscribe(subscriber)
        store.set("n", 1)
        store.set("n", 2)
        #expect(subscriber.received.isEmpty)
        subscriber.request(1)
        #expect(subscriber.received == [2])
        store.set("n", 3)
        subscriber.request(5)
        #expect(subscriber.received == [2, 3])
        subscriber.cancel()
    }

    @Test func aCancelledSubscriptionIsFreed() {
        // A view that goes away (a scenario's StepIndicator, once per checkout) must leave nothing behind: the
        // store's entry held the subscription as its sink, and the subscription held the entry.
        let store = store(["n": 0])
        weak var released: AnyObject?
        do {
            let subscriber = ManualSubscriber()
            store.publisher(for: "n", label: "Gone").subscribe(subscriber)
            released = subscriber.subscription.map { $0 as AnyObject }
            #expect(released != nil)
            subscriber.cancel()
        }
        #expect(released == nil, "the cancelled subscription is still alive")
        #expect(store.subscriptions.isEmpty)
    }

    @Test func aSubscriberMayWriteToTheStoreItListensTo() {
        let store = store(["n": 0])
        let heard = Heard<StoreValue?>()
        let c = store.publisher(for: "n").sink { value in
            heard.append(value)
            if let n = value?.integerValue, n < 3 { store.set("n", .integer(n + 1)) }
        }
        #expect(heard.values == [0, 1, 2, 3])
        #expect(store.get("n") == 3)
        c.cancel()
    }

    @Test func asyncValuesStartWithTheCurrentValue() async {
        let store = store(["n": 0])
        var iterator = store.values(for: "n").makeAsyncIterator()
        #expect(await iterator.next() == .some(0))
        store.set("n", 1)
        #expect(await iterator.next() == .some(1))
    }

    @Test func concurrentWritersDeliverEveryValueInOrderToEachSubscriber() async {
        let store = store(["n": 0])
        let heard = Heard<StoreValue?>()
        let c = store.publisher(for: "n").sink { heard.append($0) }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<250 {
                        _ = try? store.transaction { tx in
                            try tx.set("n", .integer((tx.get("n")?.integerValue ?? 0) + 1))
                        }
                    }
                }
            }
        }
        #expect(store.get("n") == 1000)
        let numbers = heard.values.compactMap { $0?.integerValue }
        #expect(numbers == Array(0...1000))
        c.cancel()
    }
}

/// Thread-safe collector of published values.
final class Heard<T: Sendable>: Sendable {
    private let state = Mutex<[T]>([])
    func append(_ value: T) { state.withLock { $0.append(value) } }
    var values: [T] { state.withLock { $0 } }
}

/// A subscriber that asks for values only when told to.
final class ManualSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = StoreValue?
    typealias Failure = Never
    private(set) var subscription: (any Subscription)?
    private(set) var received: [Int64] = []

    func receive(subscription: any Subscription) { self.subscription = subscription }
    func receive(_ input: StoreValue?) -> Subscribers.Demand {
        received.append(input?.integerValue ?? -1)
        return .none
    }
    func receive(completion: Subscribers.Completion<Never>) {}
    func request(_ n: Int) { subscription?.request(.max(n)) }
    func cancel() { subscription?.cancel() }
}
