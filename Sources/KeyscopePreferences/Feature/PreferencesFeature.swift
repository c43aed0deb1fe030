public import KeyscopeCore
public import KeyscopeInspector
public import KeyscopeProtocol
import Synchronization

/// Preference scanning as an inspector feature: `GET /api/preferences`, `PUT` and
/// `DELETE /api/preferences/:source/:container/:key`, `POST /api/preferences/refresh` and the WebSocket `preference`
/// request (docs/preferences.md).
///
/// ```swift
/// let hub = InspectorHub(registry: registry, features: [PreferencesFeature(repository), WatchesFeature(watches)])
/// ```
/// Edits and deletes go to the suite or secret store first, then to its mirror store, whose change the hub logs like
/// any other. Without an endpoint every route answers `no_preferences`; one can be attached later (``endpoint``).
public final class PreferencesFeature: InspectorFeature {
    public let name = "preferences"
    private let slot: Mutex<(any PreferencesEndpoint)?>
    private let link = HubLink()

    public init(_ endpoint: (any PreferencesEndpoint)? = nil) {
        slot = Mutex(endpoint)
    }

    /// The preferences served; safe to set from any thread, also while the server runs.
    public var endpoint: (any PreferencesEndpoint)? {
        get { slot.withLock { $0 } }
        set { slot.withLock { $0 = newValue } }
    }

    public func attached(to hub: InspectorHub) { link.set(hub) }

    /// What the dashboard's Preferences panel shows (`GET /api/preferences`).
    public func panel() throws(HubError) -> StoreValue {
        try loaded().panelDescription()
    }

    /// Scans every preference source again (`POST /api/preferences/refresh`). Allowed in read-only mode: it only
    /// reads the sources.
    public func refresh() throws(HubError) {
        try loaded().refresh()
    }

    /// Writes one preference and returns the seq of the change its mirror store recorded (`nil` when the value was
    /// already there). Checked in this order: read-only (`read_only`), a loaded endpoint (`no_preferences`), then the
    /// endpoint's rules (see ``PreferencesEndpoint/update(_:value:)``).
    @discardableResult
    public func update(_ ref: PreferenceRef, value: StoreValue) throws(HubError) -> Int? {
        let hub = try link.hub(of: name)
        try hub.checkWritable()
        let endpoint = try loaded()
        return try hub.seqOfWrite(to: try endpoint.mirrorStoreID(for: ref)) { () throws(HubError) in
            try endpoint.update(ref, value: value)
        }
    }

    /// Deletes one preference and returns the seq of the change its mirror store recorded. Checked like
    /// ``update(_:value:)``.
    @discardableResult
    public func delete(_ ref: PreferenceRef) throws(HubError) -> Int? {
        let hub = try link.hub(of: name)
        try hub.checkWritable()
        let endpoint = try loaded()
        return try hub.seqOfWrite(to: try endpoint.mirrorStoreID(for: ref)) { () throws(HubError) in
            try endpoint.delete(ref)
        }
    }

    func loaded() throws(HubError) -> any PreferencesEndpoint {
        guard let endpoint else {
            throw HubError(
                code: .noPreferences,
                message: "this process scans no preferences; an embedding service serves them with "
                    + "PreferencesFeature(…) among the inspector's features")
        }
        return endpoint
    }
}
