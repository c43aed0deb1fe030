import KeyscopeCore
import KeyscopeTesting
import Synchronization
import Testing

/// The core's seam for live backends: local changes go out in order, remote ones come in as ordinary changes that
/// carry their origin and never go back out.
@Suite struct LiveBackendTests {
    private func open(_ backend: RecordingLiveBackend, registry: StoreRegistry, scope: Scope = .app) -> KeyValueStore {
        DefaultStoreFactory(registry: registry, backend: backend).store(
            scope: scope, storage: .backend(namespace: "flags"))
    }

    @Test func theDataLoadedAtOpeningIsInTheRegisteredStateNotAChange() throws {
        let registry = StoreRegistry()
        let heard = Mutex<[StoreActivity]>([])
        let token = registry.observe { activity in heard.withLock { $0.append(activity) } }
        let store = open(RecordingLiveBackend(initial: ["beta": true]), registry: registry)
        #expect(store.snapshot() == ["beta": true])
        let activities = heard.withLock { $0 }
        #expect(activities.count == 1)
        guard case .registered(_, _, let root)? = activities.first else {
            Issue.record("expected .registered, got \(activities)")
            return
        }
        #expect(root == ["beta": true])
        token.cancel()
    }

    @Test func localChangesAreReportedInOrderWithTheRootAfterThem() throws {
        let backend = RecordingLiveBackend()
        let store = open(backend, registry: StoreRegistry())
        store.set("a", 1)
        try store.apply([.set("b.c", 2), .remove("a")])
        let sync = try #require(backend.sync("flags"))
        #expect(sync.local.count == 2)
        #expect(sync.local.allSatisfy { $0.origin == nil })
        #expect(sync.roots == [["a": 1], ["b": ["c": 2]]])
        #expect(sync.local[1].topLevelKeys == ["a", "b"])
    }

    @Test func remoteChangesAreOrdinaryChangesWithTheirOriginAndNeverGoBackOut() throws {
        let backend = RecordingLiveBackend()
        let registry = StoreRegistry()
        let heard = Mutex<[StoreChange]>([])
        let token = registry.observe { activity in
            if case .changed(let change) = activity { heard.withLock { $0.append(change) } }
        }
        let store = open(backend, registry: registry)
        let values = Mutex<[StoreValue?]>([])
        let subscription = store.publisher(for: "theme").sink { value in values.withLock { $0.append(value) } }
        let sync = try #require(backend.sync("flags"))
        let change = try #require(sync.receive(origin: "shop-2", [.set("theme", "dark")]))
        #expect(change.origin == "shop-2")
        #expect(change.transactionID == nil)
        #expect(store.get("theme") == "dark")
        #expect(heard.withLock { $0 } == [change])
        #expect(values.withLock { $0 } == [nil, "dark"])
        #expect(sync.local.isEmpty)
        // Several operations are one change with a transaction id, as they were made elsewhere.
        let both = try #require(sync.receive(origin: "shop-3", [.set("a", 1), .set("b", 2)]))
        #expect(both.patches.count == 2 && both.transactionID != nil && both.origin == "shop-3")
        // Nothing to do, nothing recorded.
        #expect(sync.receive(origin: "shop-2", []) == nil)
        subscription.cancel()
        token.cancel()
    }

    @Test func theRemoteBuilderSeesTheCurrentRoot() throws {
        let backend = RecordingLiveBackend()
        let store = open(backend, registry: StoreRegistry())
        store.set("count", 41)
        let sync = try #require(backend.sync("flags"))
        let seen = Mutex<StoreValue?>(nil)
        sync.link.applyRemote(origin: "x") { root in
            seen.withLock { $0 = root }
            return [.set("count", .integer((root["count"]?.integerValue ?? 0) + 1))]
        }
        #expect(seen.withLock { $0 } == ["count": 41])
        #expect(store.get("count") == 42)
    }

    @Test func aRemoteChangeThatDoesNotFitChangesNothing() throws {
        let backend = RecordingLiveBackend()
        let store = open(backend, registry: StoreRegistry())
        store.set("a", "text")
        let sync = try #require(backend.sync("flags"))
        #expect(sync.receive(origin: "x", [.set("b", 1), .set("a.deeper", 2)]) == nil)
        #expect(store.snapshot() == ["a": "text"])
    }

    @Test func statusFlushAndStopReachTheSync() throws {
        let backend = RecordingLiveBackend()
        let factory = DefaultStoreFactory(registry: StoreRegistry(), backend: backend)
        let store = factory.store(scope: .scenario(id: "s"), storage: .backend(namespace: "flags"))
        // Scenario stores get a namespace of their own.
        let sync = try #require(backend.sync("scenario:s/flags"))
        #expect(store.backendStatus?.location == "test://here")
        store.flush()
        #expect(sync.flushes == 1)
        factory.endScenario("s")
        #expect(sync.stops >= 1)
        #expect(sync.receive(origin: "x", [.set("late", 1)]) == nil)
        #expect(DefaultStoreFactory(registry: StoreRegistry()).store(storage: .memory).backendStatus == nil)
    }

    /// docs/store.md: a `secrets:<service>` store mirrors a secret store and is never synced to a backend, live or not.
    @Test func aSecretsStoreIsNeverHandedToTheBackend() throws {
        let live = RecordingLiveBackend()
        let store = DefaultStoreFactory(registry: StoreRegistry(), backend: live)
            .store(storage: .secrets(service: "com.shop.api"))
        #expect(store.id.description == "app/secrets:com.shop.api")
        store.set("token", "•••• (24)")
        store.flush()
        #expect(live.namespaces == [])
        #expect(store.backendStatus == nil)
        let whole = InMemoryBackend()
        let other = DefaultStoreFactory(registry: StoreRegistry(), backend: whole)
            .store(storage: .secrets(service: "com.shop.api"))
        other.set("token", "•••• (24)")
        other.flush()
        #expect(whole.namespaces == [])
        // A backend store beside them still reaches its adapter.
        _ = DefaultStoreFactory(registry: StoreRegistry(), backend: live).store(storage: .backend(namespace: "n"))
        #expect(live.namespaces == ["n"])
    }

    @Test func topLevelKeysOfARootWriteAreTheOldAndNewKeys() {
        let change = StoreChange(
            storeID: StoreID(scope: .app, storage: .memory),
            patches: [StorePatch(op: .set, keyPath: .root, oldValue: ["a": 1, "b": 2], newValue: ["b": 3, "c": 4])])
        #expect(change.topLevelKeys == ["a", "b", "c"])
    }
}
