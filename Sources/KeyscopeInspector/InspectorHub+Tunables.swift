public import KeyscopeCore
public import KeyscopeProtocol
import Synchronization

extension InspectorHub {
    /// The tunable constants that clients read and write through `GET /tune`, `PUT /tune/:key/:value`,
    /// `POST /tune` and the WebSocket `tune` request; `nil` (the default) when this process has none, and those
    /// requests get `no_tunables`. Safe to set from any thread, also while the server runs.
    ///
    /// ```swift
    /// let hub = InspectorHub(registry: registry)
    /// hub.tunables = constants          // a TunablesEndpoint whose store is registered in `registry`
    /// try hub.tune(key: "toolbar_height", value: 64)
    /// ```
    /// The endpoint's store must be registered in the hub's registry: the hub writes to it like to any other store,
    /// so its changes are in the log, and history and revert cover them.
    public var tunables: (any TunablesEndpoint)? {
        get { tunablesSlot.withLock { $0 } }
        set { tunablesSlot.withLock { $0 = newValue } }
    }

    /// Every tunable and its current value (`GET /tune`).
    ///
    /// - Throws: `no_tunables` when ``tunables`` is `nil`.
    public func tunableValues() throws(HubError) -> [String: StoreValue] {
        try loadedTunables().currentValues()
    }

    /// What the dashboard's Tunables panel shows (`GET /api/tunables`): the endpoint's
    /// ``TunablesEndpoint/panelDescription()``.
    ///
    /// - Throws: `no_tunables` when ``tunables`` is `nil`.
    public func tunablesPanel() throws(HubError) -> StoreValue {
        try loadedTunables().panelDescription()
    }

    /// Sets one tunable and returns the seq of the change it made (`nil` when nothing was recorded).
    ///
    /// Checked in this order, and nothing changes when a check fails: ``HubOptions/readOnly`` (`read_only`), a
    /// loaded endpoint (`no_tunables`), the key's form (``TunePath/checkKey(_:)``: `bad_request`), the endpoint's
    /// schema (``TunablesEndpoint/validate(key:value:)``: `unknown_key` when the schema is closed, `type_mismatch`,
    /// `out_of_range`), its store (`unknown_store` when it is not registered). Then `set` of the top-level key `key`
    /// is applied to the store through the same path as every client write: one change, in the log like any other.
    /// A key the tunables do not have yet is created. `key` is one key even when it holds dots or brackets, never a
    /// path.
    @discardableResult
    public func tune(key: String, value: StoreValue) throws(HubError) -> Int? {
        try refuseIfReadOnly()
        let endpoint = try loadedTunables()
        try TunePath.checkKey(key)
        try endpoint.validate(key: key, value: value)
        let store = try tunablesStore(of: endpoint)
        return try apply([.set(StoreKeyPath(segments: [.key(key)]), value)], transactionID: nil, to: store)
    }

    /// Replaces every tunable (`POST /tune`) and returns the seq of the change; `nil` when the new set equals the
    /// current one (nothing is recorded).
    ///
    /// Checked like ``tune(key:value:)``, every key's form, then the whole set by
    /// ``TunablesEndpoint/validateReplacement(_:)``; then one transaction, under the store's lock, sets each key
    /// whose value differs (creating new ones) and removes each top-level key that `values` lacks: one change with
    /// one `txn`. Nothing changes when any check or write fails.
    @discardableResult
    public func replaceTunables(with values: [String: StoreValue]) throws(HubError) -> Int? {
        try refuseIfReadOnly()
        let endpoint = try loadedTunables()
        for key in values.keys.sorted() { try TunePath.checkKey(key) }
        try endpoint.validateReplacement(values)
        let store = try tunablesStore(of: endpoint)
        return try transactionSeq(on: store, errorContext: "the tunables cannot be replaced: ") { tx in
            let before = tx.get(.root) ?? .emptyObject
            let current = before.objectValue ?? [:]
            for key in current.keys.sorted() where values[key] == nil {
                try tx.remove(StoreKeyPath(segments: [.key(key)]))
            }
            for key in values.keys.sorted() where current[key] != values[key] {
                try tx.set(StoreKeyPath(segments: [.key(key)]), values[key] ?? .null)
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
    public func removeTunable(key: String) throws(HubError) -> Int? {
        try refuseIfReadOnly()
        let endpoint = try loadedTunables()
        try TunePath.checkKey(key)
        try endpoint.validateRemoval(key: key)
        let store = try tunablesStore(of: endpoint)
        let path = StoreKeyPath(segments: [.key(key)])
        guard store.get(path) != nil else {
            throw HubError(
                code: .unknownKey, message: "\(key.debugDescription): no such tunable to remove (GET /tune lists them)")
        }
        // Removed meanwhile by another writer: the store records nothing and the answer is seq null.
        return try apply([.remove(path)], transactionID: nil, to: store)
    }

    /// The endpoint, or `no_tunables`.
    func loadedTunables() throws(HubError) -> any TunablesEndpoint {
        guard let endpoint = tunables else {
            throw HubError(
                code: .noTunables,
                message: "this process has no tunables loaded; an embedding service attaches them with "
                    + "InspectorHub.tunables (or Inspector.start(tunables:))")
        }
        return endpoint
    }

    /// The store that holds the endpoint's tunables, or `unknown_store` with a message that says why.
    private func tunablesStore(of endpoint: any TunablesEndpoint) throws(HubError) -> any Store {
        do {
            return try resolveStore(endpoint.storeID)
        } catch {
            throw HubError(
                code: .unknownStore,
                message: "the tunables' store \(endpoint.storeID) is not registered with the inspector; register it "
                    + "in the hub's registry")
        }
    }
}
