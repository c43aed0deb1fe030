public import KeyscopeCore
public import KeyscopeProtocol

/// What the inspector needs from preference scanning (KeyscopePreferences provides it): the Preferences panel, and
/// the one validated way in for edits, deletes and rescans that clients ask for.
///
/// Every scanned suite and service is mirrored in its own store (registered in the hub's registry), so edits and
/// deletes are in the mutation log, and history, revert and replay cover them: `app/userPrefs:<suite>` and
/// `app/secrets:<service>`, one top-level key per preference. Secrets are redacted in their mirror
/// (`"••••"` plus a length hint) unless the service turned reveal on, so no frame, log line or recording holds
/// them.
///
/// The hub calls these methods from client requests (WebSocket `preference`, `/api/preferences`), after its
/// read-only check; the endpoint applies the configuration's rules (include/exclude, editing enabled) itself.
public protocol PreferencesEndpoint: AnyObject, Sendable {
    /// What `GET /api/preferences` returns and the dashboard's Preferences panel shows (docs/preferences.md,
    /// "The panel"), written as JSON per docs/store.md.
    func panelDescription() -> StoreValue

    /// Scans every source again now; what changed meanwhile appears in the mirror stores (and so in the log).
    func refresh() throws(HubError)

    /// The mirror store that holds `ref`'s suite or service. `unknown_key` when that container is not among the
    /// scanned ones (absent, or left out by the include and exclude lists).
    func mirrorStoreID(for ref: PreferenceRef) throws(HubError) -> StoreID

    /// Writes `value` to the preference (creating it when missing) in its suite or secret store, durably and
    /// visibly to the app, then updates the mirror store (one change, redacted for secrets). A value of a `date`
    /// or `data` preference comes as a string (ISO 8601, base64) and is stored as its type. Errors: `read_only`
    /// (editing is off), `unknown_key` (container not scanned), `type_mismatch`, `bad_request` (what the suite or
    /// the secret store refused, with its reason).
    func update(_ ref: PreferenceRef, value: StoreValue) throws(HubError)

    /// Deletes the preference from its suite or secret store, then from the mirror. Errors as for ``update(_:value:)``;
    /// `unknown_key` for a key that is not there.
    func delete(_ ref: PreferenceRef) throws(HubError)

    /// Whether secrets are shown as they are (reveal is on): then nothing of the panel may go through a fleet's
    /// Redis (docs/fleet.md "Security"). `false` unless the endpoint says otherwise.
    var revealsSecrets: Bool { get }
}

extension PreferencesEndpoint {
    public var revealsSecrets: Bool { false }
}
