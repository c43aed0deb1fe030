public import KeyscopeCore
import KeyscopeInspector

/// The inspector's view of the preferences: the Preferences panel, and (in PreferencesRepository+Edits.swift) the
/// edits, deletes and rescans that `/api/preferences` and the WebSocket `preference` request ask for.
extension PreferencesRepository: PreferencesEndpoint {
    public var revealsSecrets: Bool { configuration.revealSecrets }

    /// What `GET /api/preferences` returns (docs/preferences.md, "The panel"):
    /// `{"editing", "reveal", "showSystemKeys", "containers": [{"source", "container", "store", "location", "count"}],
    /// "items": [{"id", "key", "value", "type", "source", "container", "suite"|"service", "store", "timestamp",
    /// "redacted", "length"?, "system"}]}`, containers and items sorted by source (UserDefaults first), container and
    /// key. Secrets are placeholders unless reveal is on.
    public func panelDescription() -> StoreValue {
        .object([
            "editing": .bool(configuration.editingEnabled),
            "reveal": .bool(configuration.revealSecrets),
            "showSystemKeys": .bool(configuration.showSystemKeys),
            "containers": .array(containers().map(\.jsonObject)),
            "items": .array(items().map(\.jsonObject)),
        ])
    }
}
