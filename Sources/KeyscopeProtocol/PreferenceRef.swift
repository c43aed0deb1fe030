/// Where a preference lives: a UserDefaults suite or a secret store's service.
public enum PreferenceSource: String, Sendable, Hashable, CaseIterable {
    /// A UserDefaults suite (`<suite>.plist` under `$XDG_CONFIG_HOME` on Linux, `Library/Preferences` on Apple).
    case userDefaults
    /// A service of the secret store (Secret Service through libsecret, the Keychain, or the headless file store).
    case secrets
}

/// One preference, as clients name it: its source, its container (the suite or the service) and its key.
///
/// ```swift
/// let theme = PreferenceRef(source: .userDefaults, container: "com.shop", key: "theme")
/// try hub.updatePreference(theme, value: "dark")
/// ```
public struct PreferenceRef: Sendable, Hashable, CustomStringConvertible {
    public var source: PreferenceSource
    /// The suite (UserDefaults) or the service (secrets).
    public var container: String
    /// The preference's key (the account, for secrets); any text, never a path.
    public var key: String

    public init(source: PreferenceSource, container: String, key: String) {
        self.source = source
        self.container = container
        self.key = key
    }

    /// `<source>/<container>/<key>`, the id the panel gives each preference.
    public var description: String { "\(source.rawValue)/\(container)/\(key)" }
}
