public import KeyscopeCore
public import KeyscopeInspector
public import KeyscopeProtocol
import Synchronization

/// Tunable constants as an inspector feature: `GET /tune`, `PUT /tune/:key/:value`, `DELETE /tune/:key`,
/// `POST /tune`, `GET /api/tunables` and the WebSocket `tune` request (docs/protocol.md, "Tunables").
///
/// ```swift
/// let hub = InspectorHub(registry: registry, features: [TunablesFeature(tunables)])
/// try hub.feature(TunablesFeature.self)?.tune(key: "toolbar_height", value: 64)
/// ```
/// The values live in an ordinary store (the endpoint's ``TunablesEndpoint/storeID``, registered in the hub's
/// registry), so every accepted write is applied through the hub's validated write path and is in the log like any
/// other change. Without an endpoint (``endpoint`` is `nil`: a replay, a service that loads none) every route
/// answers `no_tunables`; one can be attached later.
public final class TunablesFeature: InspectorFeature {
    public let name = "tunables"
    private let slot: Mutex<(any TunablesEndpoint)?>
    private let link = HubLink()
    private let absence: String

    /// A feature serving `endpoint` (`nil`: none yet, every route answers `no_tunables`). `absence` is that answer's
    /// message: why this process has none and what to do instead (by default, how an embedding service serves them).
    public init(_ endpoint: (any TunablesEndpoint)? = nil, absence: String? = nil) {
        slot = Mutex(endpoint)
        self.absence =
            absence
            ?? "this process has no tunables loaded; an embedding service serves them with TunablesFeature(tunables) "
            + "among the inspector's features"
    }

    /// The tunables served; safe to set from any thread, also while the server runs.
    public var endpoint: (any TunablesEndpoint)? {
        get { slot.withLock { $0 } }
        set { slot.withLock { $0 = newValue } }
    }

    public func attached(to hub: InspectorHub) { link.set(hub) }

    // MARK: Reads

    /// Every tunable and its current value (`GET /tune`). `no_tunables` without an endpoint.
    public func values() throws(HubError) -> [String: StoreValue] {
        try loaded().currentValues()
    }

    /// What the dashboard's Tunables panel shows (`GET /api/tunables`).
    public func panel() throws(HubError) -> StoreValue {
        try loaded().panelDescription()
    }

    // MARK: Writes

    /// Sets one tunable and returns the seq of the change it made (`nil` when nothing was recorded).
    ///
    /// Checked in this order, and nothing changes when a check fails: read-only (`read_only`), a loaded endpoint
    /// (`no_tunables`), the key's form (``TunePath/checkKey(_:)``: `bad_request`), the endpoint's schema
    /// (``TunablesEndpoint/validate(key:value:)``: `unknown_key` when the schema is closed, `type_mismatch`,
    /// `out_of_range`), its store (`unknown_store` when it is not registered). Then `set` of the top-level key `key`
    /// is applied through the hub's write path: one change, in the log like any other. A key the tunables do not
    /// have yet is created. `key` is one key even when it holds dots or brackets, never a path.
    @discardableResult
    public func tune(key: String, value: StoreValue) throws(HubError) -> Int? {
        let hub = try link.hub(of: name)
        try hub.checkWritable()
        let endpoint = try loaded()
        try TunePath.checkKey(key)
        try endpoint.validate(key: key, value: value)
        return try hub.apply([.set(Self.path(key), value)], to: try store(of: endpoint, in: hub))
    }

    /// Replaces every tunable (`POST /tune`) and returns the seq of the change; `nil` when the new set equals the
    /// current one (nothing is recorded).
    ///
    /// Checked like ``tune(key:value:)``, every key's form, then the whole set by
    /// ``TunablesEndpoint/validateReplacement(_:)``; then one transaction, under the store's lock, sets each key
    /// whose value differs (creating new ones) and removes each top-level key that `values` lacks: one change with
    /// one `txn`. Nothing changes when any check or write fails.
    @discardableResult
    public func replaceAll(with values: [String: StoreValue]) throws(HubError) -> Int? {
        let hub = try link.hub(of: name)
        try hub.checkWritable()
        let endpoint = try loaded()
        for key in values.keys.sorted() { try TunePath.checkKey(key) }
        try endpoint.validateReplacement(values)
        let id = try store(of: endpoint, in: hub)
        return try hub.applyTransaction(on: id, errorContext: "the tunables cannot be replaced: ") { tx in
            let before = tx.get(.root) ?? .emptyObject
            let current = before.objectValue ?? [:]
            for key in current.keys.sorted() where values[key] == nil {
                try tx.remove(Self.path(key))
            }
            for key in values.keys.sorted() where current[key] != values[key] {
                try tx.set(Self.path(key), values[key] ?? .null)
            }
            let after = tx.get(.root) ?? .emptyObject
            return after == before ? nil : (before, after)
        }
    }

    /// Removes one tunable (`DELETE /tune/:key`, the `tune` request with `"op": "remove"`) and returns the seq of
    /// the change. A service that reads the key then gets its bundled default, if it has one.
    ///
    /// Checked like ``tune(key:value:)``, then ``TunablesEndpoint/validateRemoval(key:)`` (`bad_request` for a key
    /// the schema requires); `unknown_key` when the tunables have no such key. Nothing changes when a check fails.
    @discardableResult
    public func remove(key: String) throws(HubError) -> Int? {
        let hub = try link.hub(of: name)
        try hub.checkWritable()
        let endpoint = try loaded()
        try TunePath.checkKey(key)
        try endpoint.validateRemoval(key: key)
        let id = try store(of: endpoint, in: hub)
        guard try hub.store(id).get(Self.path(key)) != nil else {
            throw HubError(
                code: .unknownKey, message: "\(key.debugDescription): no such tunable to remove (GET /tune lists them)")
        }
        // Removed meanwhile by another writer: the store records nothing and the answer is seq null.
        return try hub.apply([.remove(Self.path(key))], to: id)
    }

    // MARK: Helpers

    /// The endpoint, or `no_tunables`.
    func loaded() throws(HubError) -> any TunablesEndpoint {
        guard let endpoint else {
            throw HubError(code: .noTunables, message: absence)
        }
        return endpoint
    }

    /// The endpoint's store, checked to be registered with the hub (`unknown_store` says why otherwise).
    private func store(of endpoint: any TunablesEndpoint, in hub: InspectorHub) throws(HubError) -> StoreID {
        do {
            _ = try hub.store(endpoint.storeID)
        } catch {
            throw HubError(
                code: .unknownStore,
                message: "the tunables' store \(endpoint.storeID) is not registered with the inspector; register it "
                    + "in the hub's registry")
        }
        return endpoint.storeID
    }

    /// The top-level key `key` as a path (one key, even with dots or brackets).
    static func path(_ key: String) -> StoreKeyPath { StoreKeyPath(segments: [.key(key)]) }
}
