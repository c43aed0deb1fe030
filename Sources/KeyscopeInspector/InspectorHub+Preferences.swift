public import KeyscopeCore
public import KeyscopeProtocol
import Synchronization

extension InspectorHub {
    /// The preference scanning that `/api/preferences` and the WebSocket `preference` request serve; `nil` (the
    /// default) when this process has none, and those requests get `no_preferences`. Safe to set from any thread.
    public var preferences: (any PreferencesEndpoint)? {
        get { endpoints.withLock { $0.preferences } }
        set { endpoints.withLock { $0.preferences = newValue } }
    }

    /// What the dashboard's Preferences panel shows (`GET /api/preferences`).
    ///
    /// - Throws: `no_preferences` when ``preferences`` is `nil`.
    public func preferencesPanel() throws(HubError) -> StoreValue {
        try loadedPreferences().panelDescription()
    }

    /// Scans every preference source again (`POST /api/preferences/refresh`). Allowed in read-only mode: it only
    /// reads the sources.
    public func refreshPreferences() throws(HubError) {
        try loadedPreferences().refresh()
    }

    /// Writes one preference and returns the seq of the change its mirror store recorded (`nil` when the value was
    /// already there). Checked in this order: ``HubOptions/readOnly`` (`read_only`), a loaded endpoint
    /// (`no_preferences`), then the endpoint's rules (see ``PreferencesEndpoint/update(_:value:)``).
    @discardableResult
    public func updatePreference(_ ref: PreferenceRef, value: StoreValue) throws(HubError) -> Int? {
        try refuseIfReadOnly()
        let endpoint = try loadedPreferences()
        return try seqOfPreferenceWrite(ref, endpoint: endpoint) { () throws(HubError) in
            try endpoint.update(ref, value: value)
        }
    }

    /// Deletes one preference and returns the seq of the change its mirror store recorded. Checked like
    /// ``updatePreference(_:value:)``.
    @discardableResult
    public func deletePreference(_ ref: PreferenceRef) throws(HubError) -> Int? {
        try refuseIfReadOnly()
        let endpoint = try loadedPreferences()
        return try seqOfPreferenceWrite(ref, endpoint: endpoint) { () throws(HubError) in try endpoint.delete(ref) }
    }

    /// Runs the endpoint's write with a ticket on the mirror store, so the seq is the one its change got.
    private func seqOfPreferenceWrite(
        _ ref: PreferenceRef, endpoint: any PreferencesEndpoint, _ write: () throws(HubError) -> Void
    ) throws(HubError) -> Int? {
        let storeID = try endpoint.mirrorStoreID(for: ref)
        let ticket = WriteTicket(hub: self, storeID: storeID)
        do {
            try ticket.bound { try write() }
        } catch let error as HubError {
            throw error
        } catch {
            throw .badRequest("\(error)")
        }
        return ticket.entry?.seq
    }

    func loadedPreferences() throws(HubError) -> any PreferencesEndpoint {
        guard let endpoint = preferences else {
            throw HubError(
                code: .noPreferences,
                message: "this process scans no preferences; an embedding service attaches them with "
                    + "InspectorHub.preferences (or Inspector.start(preferences:))")
        }
        return endpoint
    }

    // MARK: Watches

    /// The watched statuses and watch rules that `/api/watches` serves; `nil` (the default) when this process has
    /// none, and those requests get `no_watches`. Safe to set from any thread.
    public var watches: (any WatchesEndpoint)? {
        get { endpoints.withLock { $0.watches } }
        set { endpoints.withLock { $0.watches = newValue } }
    }

    /// What the dashboard's Watches panel shows (`GET /api/watches`).
    ///
    /// - Throws: `no_watches` when ``watches`` is `nil`.
    public func watchesPanel() throws(HubError) -> StoreValue {
        try loadedWatches().panelDescription()
    }

    /// Re-reads every watched status now (`POST /api/watches/refresh`); allowed in read-only mode (the tracker
    /// only mirrors what the providers say).
    public func refreshWatches() throws(HubError) {
        try loadedWatches().refresh()
    }

    private func loadedWatches() throws(HubError) -> any WatchesEndpoint {
        guard let endpoint = watches else {
            throw HubError(
                code: .noWatches,
                message: "this process has no watched statuses or watch rules; an embedding service attaches them "
                    + "with InspectorHub.watches (or Inspector.start(watches:))")
        }
        return endpoint
    }
}
