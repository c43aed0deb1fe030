import ArgumentParser
import KeyscopePreferences

/// `serve`'s options for preference scanning, secrets and watches (docs/preferences.md).
struct PreferencesOptions: ParsableArguments {
    @Flag(name: .long, help: "Scan no preferences or secrets (/api/preferences then answers no_preferences).")
    var noPreferences = false

    @Flag(
        name: .long,
        help: "Show preferences and secrets read-only: every edit and delete is refused with read_only.")
    var preferencesReadOnly = false

    @Flag(name: .long, help: "Send secret values in clear (default: redacted as \"•••• (N)\" before they leave).")
    var revealSecrets = false

    @Flag(name: .long, help: "Show the keys the platform and Keyscope keep in every suite (Apple*, NS*, keyscope.*).")
    var showSystemKeys = false

    @Option(
        name: .long,
        help: ArgumentHelp("Scan only suites matching this name or * pattern (repeatable).", valueName: "SUITE"))
    var includeSuite: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Never scan or touch suites matching this (repeatable; wins over includes).", valueName: "SUITE"))
    var excludeSuite: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp("Scan only secret services matching this name or * pattern (repeatable).", valueName: "NAME")
    )
    var includeService: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp("Never scan or touch secret services matching this (repeatable).", valueName: "NAME"))
    var excludeService: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where the demo's secrets live: file (a 0600 file in secrets/ of the state folder: "
                + "$KEYSCOPE_HOME, else $XDG_STATE_HOME/keyscope, else ~/.local/state/keyscope), secret-service (the "
                + "desktop keyring through libsecret) or auto (secret-service when a session bus answers).",
            valueName: "BACKEND"))
    var secrets: SecretsBackendOption = .file

    @Option(
        name: .long,
        help: ArgumentHelp("The port whose state the demo's PortFree status watches.", valueName: "N"))
    var statusPort: Int = 6379

    func validate() throws {
        guard (1...65535).contains(statusPort) else {
            throw ValidationError("--status-port must be 1 to 65535; got \(statusPort).")
        }
        let scoped = [includeSuite, excludeSuite, includeService, excludeService].contains { !$0.isEmpty }
        guard !(noPreferences && (scoped || preferencesReadOnly || revealSecrets || showSystemKeys)) else {
            throw ValidationError("--no-preferences cannot be used with other preference options.")
        }
    }

    /// The scanning configuration these options describe.
    var configuration: PreferencesConfiguration {
        PreferencesConfiguration(
            includeSuites: includeSuite, excludeSuites: excludeSuite, includeServices: includeService,
            excludeServices: excludeService, showSystemKeys: showSystemKeys, editingEnabled: !preferencesReadOnly,
            revealSecrets: revealSecrets)
    }
}

/// `--secrets`: which secret store the demo uses.
enum SecretsBackendOption: String, ExpressibleByArgument, CaseIterable {
    case file
    case secretService = "secret-service"
    case auto
}
