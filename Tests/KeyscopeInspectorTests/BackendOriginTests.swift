import KeyscopeCore
import KeyscopeInspector
import KeyscopeTesting
import Testing

/// docs/fleet.md in the hub: a change from another instance carries `"origin"` in its log line, and a store a live
/// backend syncs carries `"backend"` in the snapshot.
@Suite struct BackendOriginTests {
    @Test func aRemoteChangeLineCarriesItsOriginWithSortedKeys() throws {
        let hub = startedHub()
        let backend = RecordingLiveBackend()
        let store = DefaultStoreFactory(registry: hub.registry, backend: backend).store(
            storage: .backend(namespace: "shop"))
        store.set("local", 1)
        try #require(backend.sync("shop")).receive(origin: "shop-2", [.set("flag", true)])
        let entries = (1...3).compactMap { hub.entry(seq: $0) }
        let local = try #require(entries.first { $0.change?.origin == nil && $0.change != nil })
        let remote = try #require(entries.first { $0.change?.origin != nil })
        #expect(!String(decoding: local.lineBytes, as: UTF8.self).contains("origin"))
        let line = try parsed(remote.lineBytes)
        #expect(line["origin"] == "shop-2")
        #expect(line["patches"] == [["op": "set", "path": "flag", "new": true]])
        #expect(remote.lineBytes == StoreValue.object(line).jsonBytes(sortedKeys: true))
        #expect(String(decoding: remote.lineBytes, as: UTF8.self).hasPrefix(#"{"origin":"shop-2","patches":["#))
        #expect(remote.jsonObject == .object(line))
    }

    @Test func theSnapshotShowsTheBackendOfSyncedStoresOnly() throws {
        let hub = startedHub()
        let backend = RecordingLiveBackend()
        let store = DefaultStoreFactory(registry: hub.registry, backend: backend).store(
            storage: .backend(namespace: "shop"))
        _ = try addStore(hub, "plain")
        try #require(backend.sync("shop")).status = BackendStatus(
            kind: "redis", location: "redis://127.0.0.1:6379/0", state: .disconnected, pending: 3)
        let snapshot = hub.snapshot()
        let synced = try #require(snapshot.store(store.id))
        #expect(
            synced.jsonObject["backend"]
                == ["redis": "redis://127.0.0.1:6379/0", "state": "disconnected", "pending": 3])
        let plain = try #require(snapshot.stores.first { $0.id != store.id })
        #expect(plain.jsonObject["backend"] == nil)
    }
}
