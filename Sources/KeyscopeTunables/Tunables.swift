public import Foundation
public import KeyscopeCore
public import Logging
import Synchronization

/// Constants a running service reads and people tune while it runs: a flat JSON file of key → value
/// (`live-constants.json`), held in a store the inspector sees, optionally checked by a schema.
///
/// ```swift
/// let tunables = try Tunables(
///     defaultsURL: Bundle.module.url(forResource: "live-constants", withExtension: "json")!,
///     appName: "shop")
/// let height = tunables.double("toolbar_height", default: 44)
/// try tunables.set("toolbar_height", 48)
/// let watch = tunables.publisher(for: "toolbar_height").sink { print($0 ?? "gone") }
/// ```
/// - On the first run the bundled defaults are copied to the writable file; from then on only that copy is read and
///   written (the defaults stay read-only). Keys the defaults gained since (an app update) are added to the copy.
/// - The values live in a ``KeyValueStore`` with the id `app/file:<path of the copy>`, registered in a
///   ``StoreRegistry``: its changes are in the inspector's log, and every write to it, through this class or not
///   (the inspector, a revert), is saved to the file atomically, bursts coalesced.
/// - Another program's edit of the file (an editor's save, in place or by rename) is applied as one change when it
///   parses and passes the schema; otherwise it is logged (`keyscope.tunables`, error) and the last good values stay.
/// - The tunables are an open JSON object: a write may create a key (unless the schema is closed with
///   `"additionalKeys": false`). Writes through this class are checked first (the key's form, the schema) and change
///   nothing when refused.
///
/// Call ``stop()`` (or release the object) to stop watching, save what is pending and leave the registry.
public final class Tunables: Sendable {
    /// How the writable file is watched for edits by other programs.
    public enum Watching: Sendable, Hashable {
        /// inotify on Linux (the file's directory, so saves by rename are seen), polling every 250 ms elsewhere.
        case automatic
        /// Compares the file's modification time, size and inode every `interval` (for file systems without
        /// inotify, such as some network mounts).
        case polling(interval: Duration)
        /// Edits by other programs are not picked up until the next start.
        case off
    }

    /// The writable copy: the file that is read and written.
    public let fileURL: URL
    /// The bundled defaults: read once, never written.
    public let defaultsURL: URL
    /// The schema that checks every write, or `nil` when there is none.
    public let schema: TunablesSchema?
    /// The bundled default values, by key.
    public let defaults: [String: StoreValue]
    /// The store that holds the values: one top-level key per tunable.
    public let store: KeyValueStore
    /// The registry the store is registered in.
    public let registry: StoreRegistry

    let file: TunablesFile
    /// The checks every write and every new set of values passes.
    let rules: TunablesRules
    private let watcher: FileWatcher?
    /// The store subscription that saves changes; `nil` once stopped.
    private let saving: Mutex<AnyCancellable?>

    /// Opens the tunables: copies `defaultsURL` to `fileURL` on the first run, loads the copy, registers the store
    /// in `registry` and starts watching the file.
    ///
    /// - Parameters:
    ///   - defaultsURL: the bundled defaults, a JSON object of key → value.
    ///   - fileURL: the writable copy (see ``TunablesLocation/defaultFileURL(appName:environment:)``).
    ///   - schemaURL: the schema; `nil` uses `<defaults name>.schema.json` beside the defaults when it exists.
    ///   - registry: where the store is registered (``StoreRegistry/shared`` for the inspector).
    ///   - watching: how edits by other programs are noticed.
    ///   - logger: where refused file edits, failed saves and watcher trouble are reported (`keyscope.tunables`).
    /// - Throws: ``TunablesError`` with ``TunablesError/Code/missingFile`` (no defaults, or no schema at an explicit
    ///   `schemaURL`), ``TunablesError/Code/badFile`` (the defaults or the copy do not parse or break the schema; the
    ///   copy is left as it is), ``TunablesError/Code/badSchema``, ``TunablesError/Code/io``, or
    ///   ``TunablesError/Code/store`` (a store with this id is already registered: stop the other instance first).
    public init(
        defaultsURL: URL, fileURL: URL, schemaURL: URL? = nil, registry: StoreRegistry = .shared,
        watching: Watching = .automatic, logger: Logger = Logger(label: "keyscope.tunables")
    ) throws(TunablesError) {
        let fileURL = fileURL.standardizedFileURL
        let schemaFile = schemaURL ?? TunablesLocation.schemaURL(besideValuesFile: defaultsURL)
        let schema: TunablesSchema? =
            schemaURL == nil && !FileManager.default.fileExists(atPath: schemaFile.path)
            ? nil : try TunablesSchema(contentsOf: schemaFile)
        let defaultsData = try readFile(defaultsURL, what: "defaults file")
        let defaults = try TunablesDocument.values(from: defaultsData, path: defaultsURL.path, what: "defaults file")
        let rules = TunablesRules(schema: schema, defaults: defaults)
        try Self.checkFile(defaults, against: rules, path: defaultsURL.path, what: "defaults file")

        // A process killed while saving leaves its temporary beside the copy; the file storage sweeps them too.
        AtomicFile.removeStaleTemporaries(of: fileURL)
        let (loaded, written) = try Self.loadCopy(at: fileURL, defaults: defaults, defaultsData: defaultsData)
        try Self.checkFile(loaded, against: rules, path: fileURL.path, what: "tunables file")

        let store = KeyValueStore(id: StoreID(scope: .app, storage: .file(url: fileURL)), root: loaded)
        do {
            try registry.register(store)
        } catch {
            throw TunablesError(
                code: .store,
                message: "a store with id \(store.id) is already registered; stop() the other Tunables on this file "
                    + "first (\(error.message))")
        }
        let file = TunablesFile(url: fileURL, store: store, written: written, logger: logger) {
            values throws(TunablesError) in
            try rules.check(replacement: values)
        }
        self.fileURL = fileURL
        self.defaultsURL = defaultsURL
        self.schema = schema
        self.defaults = defaults
        self.rules = rules
        self.store = store
        self.registry = registry
        self.file = file
        // The first delivery (the current state) saves keys added from the defaults; later ones save every change.
        self.saving = Mutex<AnyCancellable?>(
            store.publisher(for: .root, label: "keyscope.tunables: saves to \(fileURL.lastPathComponent)")
                .sink { [weak file] _ in file?.storeChanged() })
        let mode: FileWatcher.Mode?
        switch watching {
        case .off: mode = nil
        case .polling(let interval): mode = .polling(interval: interval)
        case .automatic:
            #if os(Linux)
            mode = .inotify
            #else
            mode = .polling(interval: .milliseconds(250))
            #endif
        }
        self.watcher = mode.map { mode in
            FileWatcher(fileURL: fileURL, mode: mode, logger: logger) { [weak file] in file?.fileChanged() }
        }
    }

    /// Opens the tunables with the writable copy at its default place for `appName`
    /// (``TunablesLocation/defaultFileURL(appName:environment:)``); see
    /// ``init(defaultsURL:fileURL:schemaURL:registry:watching:logger:)``.
    public convenience init(
        defaultsURL: URL, appName: String, schemaURL: URL? = nil, registry: StoreRegistry = .shared,
        watching: Watching = .automatic, logger: Logger = Logger(label: "keyscope.tunables")
    ) throws(TunablesError) {
        try self.init(
            defaultsURL: defaultsURL, fileURL: TunablesLocation.defaultFileURL(appName: appName),
            schemaURL: schemaURL, registry: registry, watching: watching, logger: logger)
    }

    deinit { stop() }

    /// The store's id, `app/file:<path of the writable copy>`.
    public var storeID: StoreID { store.id }

    /// Whether ``stop()`` was called.
    public var isStopped: Bool { saving.withLock { $0 == nil } }

    /// Stops watching the file, saves what is pending (and waits for it) and removes the store from the registry.
    /// The values stay readable; writes through this object are refused with ``TunablesError/Code/store``.
    /// Safe to call more than once.
    public func stop() {
        guard
            let subscription = saving.withLock({ saving in
                defer { saving = nil }
                return saving
            })
        else { return }
        watcher?.stop()
        subscription.cancel()
        file.stop()
        registry.unregister(store.id)
    }

    /// Saves every change made so far and waits until it is on disk. Writes are saved on their own soon after they
    /// happen; call this before exiting, or in tests.
    /// - Throws: ``TunablesError/Code/io`` when the save failed (the values are still in memory; the next change or
    ///   flush tries again).
    public func flush() throws(TunablesError) {
        try file.flush()
    }

    // MARK: Loading

    /// The copy's values (with keys the defaults gained added) and the copy's content as it is on disk; copies the
    /// defaults there first when there is no copy yet.
    private static func loadCopy(at url: URL, defaults: [String: StoreValue], defaultsData: Data)
        throws(TunablesError) -> (values: [String: StoreValue], written: StoreValue)
    {
        guard FileManager.default.fileExists(atPath: url.path) else {
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                // The bytes as they are, but with our own permissions: a read-only bundle file gives a writable copy.
                try AtomicFile.write(defaultsData, to: url)
            } catch {
                throw TunablesError(code: .io, message: "could not copy the defaults to \(url.path): \(error)")
            }
            return (defaults, .object(defaults))
        }
        let copy = try TunablesDocument.values(
            from: readFile(url, what: "tunables file"), path: url.path, what: "tunables file")
        return (copy.merging(defaults) { kept, _ in kept }, .object(copy))
    }

    private static func checkFile(
        _ values: [String: StoreValue], against rules: TunablesRules, path: String, what: String
    )
        throws(TunablesError)
    {
        do {
            try rules.check(replacement: values)
        } catch {
            let broken = error.code == .badKey ? "has a key no tunables file may hold" : "breaks the schema"
            throw TunablesError(
                code: .badFile, message: "the \(what) \(path) \(broken): \(error.message)", key: error.key)
        }
    }
}
