import Dispatch
import Foundation
public import KeyscopeCore
import KeyscopeInspector
public import KeyscopeProtocol
public import KeyscopeSecrets
public import Logging
import Synchronization

/// Finds the service's UserDefaults suites and secret services with no registration, mirrors each in a store the
/// inspector sees, and is the validated way to edit them (docs/preferences.md).
///
/// ```swift
/// let preferences = try PreferencesRepository(
///     configuration: PreferencesConfiguration(excludeSuites: ["com.shop.cache*"]),
///     secrets: try FileSecretStore(directory: dataDirectory, appID: "com.shop"))
/// hub.add(PreferencesFeature(preferences))                  // the Preferences panel, /api/preferences
/// try preferences.update(PreferenceRef(source: .userDefaults, container: "com.shop", key: "theme"), value: "dark")
/// preferences.startAutoRefresh(every: .seconds(5))           // pick up the app's own changes
/// ```
///
/// - **Mirrors.** Each scanned suite `S` is the store `app/userPrefs:S`, each secret service `V` the store
///   `app/secrets:V`, registered in ``registry``; one top-level key per preference. The stores are
///   write-through: a write, transaction or revert a client sends to one is written to the suite (then synchronised)
///   or to the secret store before the change commits, or refused as a whole. Secrets are redacted in their mirror
///   (`"•••• (N)"`) unless ``PreferencesConfiguration/revealSecrets`` is on, and then such a mirror refuses generic
///   writes (edit secrets with ``update(_:value:)``).
/// - **Rescans.** ``refresh()`` (or the timer of ``startAutoRefresh(every:)``) reads every source again; what changed
///   becomes one change per container in its mirror. Containers that appeared are registered, those that went away
///   unregistered.
/// - **Rules.** The configuration's include and exclude lists, system keys and editing switch hold on every path:
///   this class's methods, the hub's `preference` requests, and generic writes to the mirrors.
///
/// Thread-safe. Its state is under one lock that is never held while calling the sources, a store or the registry.
/// A mirror's gate calls the sources under that store's lock, so that writes to one container are carried to it in
/// the order the mirror commits them. Call ``stop()`` (or release it) to unregister the mirrors.
public final class PreferencesRepository: Sendable {
    /// What is scanned, shown and allowed.
    public let configuration: PreferencesConfiguration
    /// Where the mirror stores are registered.
    public let registry: StoreRegistry
    /// Finds and reads the UserDefaults suites.
    public let userDefaults: UserDefaultsScanner
    let secrets: SecretsScanner?
    let logger: Logger

    struct State {
        var containers: [ContainerName: MirrorContainer] = [:]
        /// What the last scan could not read or show (never a value).
        var problems: [String] = []
        var stopped = false
    }

    let state = Mutex(State())
    let autoRefresh = Mutex<(any DispatchSourceTimer)?>(nil)

    /// Scans every source once and registers a mirror for each container found.
    ///
    /// - Parameters:
    ///   - configuration: what to scan, show and allow.
    ///   - userDefaults: where suites are looked for (Foundation's own folder by default; tests pass a scanner of a
    ///     temporary folder).
    ///   - secrets: the app's secret store, or `nil` to scan no secrets.
    ///   - registry: where the mirror stores are registered (the inspector hub's registry).
    ///   - logger: where unreadable suites and values are reported (`keyscope.preferences`; never a value).
    /// - Throws: ``PreferenceSourceError/Code/badName`` when discovery is off and an included plain name is not
    ///   usable (empty, `/`, `..`, control characters).
    public init(
        configuration: PreferencesConfiguration = PreferencesConfiguration(),
        userDefaults: UserDefaultsScanner = UserDefaultsScanner(), secrets: (any SecretStore)? = nil,
        registry: StoreRegistry = .shared, logger: Logger = Logger(label: "keyscope.preferences")
    ) throws(PreferenceSourceError) {
        if !configuration.discoverUserDefaults {
            for name in PreferenceNames.plainNames(configuration.includeSuites) {
                try PreferenceNames.check(name, source: .userDefaults)
            }
        }
        if !configuration.discoverSecrets, secrets != nil {
            for name in PreferenceNames.plainNames(configuration.includeServices) {
                try PreferenceNames.check(name, source: .secrets)
            }
        }
        self.configuration = configuration
        self.userDefaults = userDefaults
        self.secrets = secrets.map(SecretsScanner.init(store:))
        self.registry = registry
        self.logger = logger
        rescan()
    }

    deinit { stop() }

    /// Stops the timer and unregisters every mirror. Later edits are refused (`unknown_key`); safe to call twice.
    public func stop() {
        stopAutoRefresh()
        let ids = state.withLock { state -> [StoreID] in
            state.stopped = true
            defer { state.containers = [:] }
            return state.containers.values.map(\.store.id)
        }
        for id in ids { registry.unregister(id) }
    }

    /// Whether ``stop()`` was called.
    public var isStopped: Bool { state.withLock { $0.stopped } }

    /// Scans every source again now and returns every preference shown (see ``refresh()``).
    @discardableResult
    public func scanAll() -> [PreferenceItem] {
        rescan()
        return items()
    }

    /// The scanned containers, UserDefaults suites first, each source's by name.
    public func containers() -> [PreferenceContainer] {
        state.withLock { $0.containers.values.sorted { $0.name < $1.name } }.map { container in
            PreferenceContainer(
                source: container.name.source, name: container.name.name, storeID: container.store.id,
                location: container.location, count: container.entries.count)
        }
    }

    /// The preferences shown, of one source or of all, sorted by source, container and key.
    public func items(source: PreferenceSource? = nil) -> [PreferenceItem] {
        let containers = state.withLock { state in
            state.containers.values.filter { source == nil || $0.name.source == source }
        }
        return containers.sorted { $0.name < $1.name }.flatMap { container in
            container.entries.keys.sorted().map { key in
                let entry = container.entries[key]!
                return PreferenceItem(
                    ref: PreferenceRef(source: container.name.source, container: container.name.name, key: key),
                    value: entry.value, type: entry.type, storeID: container.store.id, timestamp: entry.timestamp,
                    isRedacted: entry.redacted, length: entry.length, isSystem: entry.system)
            }
        }
    }

    /// What the last scan could not read or show: unreadable suites, values with no StoreValue form, unusable names.
    /// Never holds a value.
    public var problems: [String] { state.withLock { $0.problems } }

    /// The container `ref` names, if it is scanned.
    /// - Throws: `bad_name` for an unusable name, `unknown_key` for a container that is not scanned.
    func scannedContainer(_ ref: PreferenceRef) throws(PreferenceSourceError) -> MirrorContainer {
        try PreferenceNames.check(ref.container, source: ref.source)
        let name = ContainerName(source: ref.source, name: ref.container)
        guard let container = state.withLock({ $0.containers[name] }) else {
            let list = ref.source == .userDefaults ? "includeSuites/excludeSuites" : "includeServices/excludeServices"
            throw .unknownKey(
                "\(name) is not among the scanned ones: it does not exist (yet: refresh after creating it), or the "
                    + "configuration's \(list) leave it out")
        }
        return container
    }
}
