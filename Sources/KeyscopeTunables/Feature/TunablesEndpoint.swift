public import KeyscopeCore
public import KeyscopeProtocol

/// What the inspector needs from a set of tunable constants (KeyscopeTunables provides one): the store that holds
/// them, and the schema check every client write passes before the hub applies it.
///
/// The values live in an ordinary store (registered in the hub's registry), so their changes are in the mutation
/// log and history, revert and replay cover them. Client writes (`PUT /tune/:key/:value`, `DELETE /tune/:key`,
/// `POST /tune`, the `tune` WebSocket request) go through ``TunablesFeature/tune(key:value:)``,
/// ``TunablesFeature/remove(key:)`` and ``TunablesFeature/replaceAll(with:)``: the feature checks the key's form
/// (``TunePath/checkKey(_:)``), the endpoint validates, then the hub applies the write to ``storeID`` like any other
/// client write. The tunables are an open JSON object: a write may create a key, unless the endpoint refuses keys
/// it does not know (a closed schema).
public protocol TunablesEndpoint: AnyObject, Sendable {
    /// The store that holds the tunables, one top-level key per tunable.
    var storeID: StoreID { get }

    /// Every tunable, key → current value (`GET /tune`).
    func currentValues() -> [String: StoreValue]

    /// Checks that `value` may be written to the tunable `key`, which may be a new key: `unknown_key` when the
    /// endpoint admits no new keys (a closed schema), the schema's type (`type_mismatch`), range, step and options
    /// (`out_of_range`). The message says what to fix.
    func validate(key: String, value: StoreValue) throws(HubError)

    /// Checks a whole new set of tunables (`POST /tune`, which replaces them all): each key as in
    /// ``validate(key:value:)``, and (`bad_request`) no key the schema requires left out.
    func validateReplacement(_ values: [String: StoreValue]) throws(HubError)

    /// Checks that the tunable `key` may be removed (`DELETE /tune/:key`): `bad_request` when the schema requires
    /// it. The hub refuses a key the store does not hold (`unknown_key`) itself.
    func validateRemoval(key: String) throws(HubError)

    /// Types a value that came through the path form `PUT /tune/:key/:value`, where docs/protocol.md makes anything but a
    /// JSON number a string: a tunable that holds a color, a URL or a bool takes `#ff8800`, `https://…` or `true`
    /// as one, and a `number` tunable takes `4` as `4.0`. Anything else is returned as it came (and then validated).
    func interpretPathValue(_ value: StoreValue, forKey key: String) -> StoreValue

    /// What the dashboard's Tunables panel shows: `{"store": id, "values": {…}, "defaults": {…}, "schema": {…}}`
    /// (`schema` is `null` without a schema file). Written as JSON per docs/store.md.
    func panelDescription() -> StoreValue
}

extension TunablesEndpoint {
    /// Allows every removal.
    public func validateRemoval(key: String) throws(HubError) {}

    /// Leaves the value as it came.
    public func interpretPathValue(_ value: StoreValue, forKey key: String) -> StoreValue { value }
}
