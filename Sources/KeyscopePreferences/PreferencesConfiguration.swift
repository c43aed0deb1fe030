/// What preference scanning looks at, shows and allows. The defaults scan everything of the app, hide system keys,
/// allow edits and keep secrets redacted.
///
/// ```swift
/// var configuration = PreferencesConfiguration()
/// configuration.excludeSuites = ["com.shop.cache*"]
/// configuration.editingEnabled = false          // the dashboard shows preferences read-only
/// ```
/// Lists hold names or patterns where `*` matches any run of characters (`com.shop.*`). An empty include list
/// includes everything; the exclude list wins over the include list. A ``PreferencesRepository`` applies it on every
/// path: its own methods, the inspector's `preference` requests and generic writes to the mirror stores.
public struct PreferencesConfiguration: Sendable, Hashable {
    /// Finds UserDefaults suites by scanning where Foundation keeps them; off shows only ``includeSuites``' plain
    /// names (no patterns).
    public var discoverUserDefaults: Bool
    /// Lists the secret store's services by itself; off shows only ``includeServices``' plain names.
    public var discoverSecrets: Bool
    /// Suites to show (names or `*` patterns); empty: every suite found.
    public var includeSuites: [String]
    /// Suites never to show or touch, even when included.
    public var excludeSuites: [String]
    /// Secret services to show (names or `*` patterns); empty: every service of the app.
    public var includeServices: [String]
    /// Secret services never to show or touch, even when included.
    public var excludeServices: [String]
    /// Shows keys that the platform or Keyscope keep in every suite (`Apple*`, `NS*`, `com.apple.*`, `keyscope.*`).
    public var showSystemKeys: Bool
    /// Allows edits and deletes from the inspector; off makes every preference read-only on every path.
    public var editingEnabled: Bool
    /// Sends secret values in clear. Off (the default): they are redacted (`"••••"` plus a length hint) before they
    /// leave the process, in every frame, log line and recording.
    public var revealSecrets: Bool

    public init(
        discoverUserDefaults: Bool = true, discoverSecrets: Bool = true,
        includeSuites: [String] = [], excludeSuites: [String] = [],
        includeServices: [String] = [], excludeServices: [String] = [],
        showSystemKeys: Bool = false, editingEnabled: Bool = true, revealSecrets: Bool = false
    ) {
        self.discoverUserDefaults = discoverUserDefaults
        self.discoverSecrets = discoverSecrets
        self.includeSuites = includeSuites
        self.excludeSuites = excludeSuites
        self.includeServices = includeServices
        self.excludeServices = excludeServices
        self.showSystemKeys = showSystemKeys
        self.editingEnabled = editingEnabled
        self.revealSecrets = revealSecrets
    }
}
