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
    var codes: [StoreError.Code] { lock.lock(); defer { lock.unlock() }; return items }
}
