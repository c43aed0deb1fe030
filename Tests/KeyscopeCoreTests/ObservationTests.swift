import Foundation
import KeyscopeCore
import Testing

/// The one observation hook: every change of every registered store, with its id.
@Suite struct ObservationTests {
    @Test func hearsRegistrationChangesAndRemovalOfEveryStore() throws {
        let registry = StoreRegistry()
        let activity = ActivityBox()
        let token = registry.observe { activity.append($0) }
        defer { token.cancel() }
        let a = KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: ["x": 1])
        let b = KeyValueStore(id: StoreID(scope: .scenario(id: "s"), storage: .memory))
        try registry.register(a)
        try registry.register(b)
        a.set("x", 2)
        b.set("y", 1)
        registry.unregister(b.id)
        b.set("y", 2)  // no longer observed
        let all = activity.all
        guard case .registered(let id, let version, let root) = all.first else {
            Issue.record("first activity is not a registration")
            return
        }
        #expect(id == a.id && version == .initial && root == ["x": 1])
        #expect(activity.changes.map(\.storeID) == [a.id, b.id])
        #expect(activity.removed == [b.id])
    }

    @Test func aSecondStoreWithTheSameIDIsRefusedWhileTheFirstIsRegistered() throws {
        let registry = StoreRegistry()
        let id = StoreID(scope: .app, storage: .memory)
        try registry.register(KeyValueStore(id: id))
        #expect(throws: StoreError.self) { try registry.register(KeyValueStore(id: id)) }
        registry.unregister(id)
        try registry.register(KeyValueStore(id: id))
    }

    @Test func subscriptionChangesAreAnnouncedWithTheList() throws {
        let registry = StoreRegistry()
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory))
        try registry.register(store)
        let activity = ActivityBox()
        let token = registry.observe { activity.append($0) }
        defer { token.cancel() }
        let c = store.publisher(for: "a", label: "L").sink { _ in }
        c.cancel()
        let lists = activity.all.compactMap { if case .subscriptionsChanged(_, let list) = $0 { list } else { nil } }
        #expect(lists.map { $0.map(\.label) } == [["L"], []])
    }

    @Test func aWriteFromInsideAnObserverIsRefusedNotDeadlocked() throws {
        let registry = StoreRegistry()
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory))
        try registry.register(store)
        let errors = ActivityErrors()
        let token = registry.observe { activity in
            if case .changed = activity {
                do { try store.apply(.set("echo", 1)) } catch { errors.append(error) }
            }
        }
        defer { token.cancel() }
        store.set("x", 1)
        #expect(errors.codes == [.reentrant])
        #expect(store.get("echo") == nil)
    }

    @Test func cancelledObserversHearNothing() throws {
        let registry = StoreRegistry()
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory))
        try registry.register(store)
        let activity = ActivityBox()
        let token = registry.observe { activity.append($0) }
        token.cancel()
        store.set("x", 1)
        #expect(activity.all.isEmpty)
    }
}

final class ActivityErrors: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [StoreError.Code] = []
    func append(_ error: any Error) {
        lock.lock()
        items.append((error as? StoreError)?.code ?? StoreError.Code(rawValue: "other"))
        lock.unlock()
    }
    var codes: [StoreError.Code] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

/// Observers run under the store's lock: calling back must be refused or deferred, never deadlock or crash.
@Suite struct ObserverCallbackTests {
    @Test func observersMayReadTheStoreOnEveryKindOfActivity() throws {
        let registry = StoreRegistry()
        let factory = DefaultStoreFactory(registry: registry)
        let seen = ActivityBox()
        let token = registry.observe { activity in
            // Every one of these used to deadlock (recursive Mutex lock) for non-change activity.
            if let store = registry.store(activity.storeID) {
                _ = store.subscriptions
                _ = store.snapshot()
                _ = store.get("a")
                _ = store.version
            }
            _ = factory.store(scope: .app, storage: .memory)
            seen.append(activity)
        }
        defer { token.cancel() }
        let store = factory.store(scope: .app, storage: .memory)
        let c = store.publisher(for: "a").sink { _ in }
        store.set("a", 1)
        factory.updateVersion("2.0.0")
        c.cancel()
        factory.endScenario("none")
        #expect(seen.all.count >= 5)
        #expect(store.version == "2.0.0")
    }

    @Test func anObserverMayCancelASubscriptionOfTheStoreItObserves() async throws {
        let registry = StoreRegistry()
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory))
        try registry.register(store)
        let holder = CancellableHolder()
        holder.cancellable = store.publisher(for: "a").sink { _ in }
        let token = registry.observe { activity in
            if case .changed = activity { holder.cancel() }
        }
        defer { token.cancel() }
        store.set("a", 1)
        for _ in 0..<200 where !store.subscriptions.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        #expect(store.subscriptions.isEmpty)
    }

    @Test func twoFactoriesOnOneRegistryShareTheStoreOfAnID() {
        let registry = StoreRegistry()
        let a = DefaultStoreFactory(registry: registry).store(scope: .app, storage: .memory)
        let b = DefaultStoreFactory(registry: registry).store(scope: .app, storage: .memory)
        #expect(a === b)
    }
}

final class CancellableHolder: @unchecked Sendable {
    private let lock = NSLock()
    var cancellable: AnyCancellable?
    func cancel() {
        lock.lock()
        let c = cancellable
        lock.unlock()
        c?.cancel()
    }
}
