public import KeyscopeCore

/// What the inspector needs from watched statuses and watch rules (KeyscopePreferences provides it): the Watches
/// panel, and a way to re-read every status now.
///
/// Statuses are mirrored into preference keys (so their changes are in the mutation log through the preferences'
/// mirror stores); rules check key paths of any store and flag the changes that break them.
public protocol WatchesEndpoint: AnyObject, Sendable {
    /// What `GET /api/watches` returns and the dashboard's Watches panel shows (docs/preferences.md,
    /// "The Watches panel"), written as JSON per docs/store.md.
    func panelDescription() -> StoreValue

    /// Reads every status from its provider now and stores the ones that changed (`POST /api/watches/refresh`).
    func refresh()
}
