public import Foundation
public import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol

/// Finds the UserDefaults suites of the process's user where Foundation keeps them, and reads and writes their keys
/// the way Foundation does, so that the app sees every write.
///
/// ```swift
/// let scanner = UserDefaultsScanner()                  // Foundation's own folder
/// for name in try scanner.suiteNames() {
///     if let suite = try scanner.read(suite: name) { print(name, suite.values) }
/// }
/// let sandbox = UserDefaultsScanner(directory: URL(fileURLWithPath: "/tmp/prefs-test"))   // tests
/// ```
///
/// **Where suites are.** corelibs Foundation (Linux) keeps suite `S` in `$XDG_CONFIG_HOME/S.plist` (an XML
/// property list), or `$HOME/.config/S.plist` when `XDG_CONFIG_HOME` is not set; it reads the variable once, when the
/// process starts. Apple platforms keep it in `~/Library/Preferences/S.plist`. A suite name with `/` or `..` would
/// make Foundation leave that folder (`UserDefaults(suiteName: "../x")` writes `$XDG_CONFIG_HOME/../x.plist`), so
/// such names are refused (``checkSuiteName(_:)``).
///
/// **Fresh reads.** corelibs Foundation caches each suite in memory: a change saved by another process is not seen
/// until the suite is synchronised again. Every read here calls `synchronize()` first, which, when this process has
/// nothing pending for the suite, drops the cache, so the values come from the file as it is now (and the
/// process's own pending writes are saved first). Only the suite's own domain is read: registered defaults and
/// command-line arguments (which `dictionaryRepresentation()` merges in) are left out.
///
/// **Another folder.** With an explicit `directory` that is not Foundation's, suites are opened by their absolute
/// path (`UserDefaults(suiteName: "/tmp/prefs-test/com.shop")`, which Foundation reads and writes as
/// `/tmp/prefs-test/com.shop.plist`); the app sees those writes only if it opens the suite the same way.
public struct UserDefaultsScanner: Sendable {
    /// The folder scanned for `<suite>.plist` files.
    public let directory: URL
    /// Whether `directory` is Foundation's own folder, so that suites are opened by their names.
    private let isFoundationDirectory: Bool

    /// The key of a suite that holds a Keyscope store (such suites are skipped: they are that store already).
    public static let keyscopeStoreKey = "keyscope.store"

    /// A scanner of `directory`, or of Foundation's own folder (``defaultDirectory(environment:)``) when `nil`.
    public init(directory: URL? = nil) {
        let standard = Self.defaultDirectory().standardizedFileURL
        let chosen = directory?.standardizedFileURL ?? standard
        self.directory = chosen
        self.isFoundationDirectory = chosen.path == standard.path
    }

    /// Where Foundation keeps suites: `$XDG_CONFIG_HOME` (when absolute) or `$HOME/.config` on Linux,
    /// `~/Library/Preferences` on Apple platforms.
    public static func defaultDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        #if canImport(Darwin)
        if let library = FileManager.default.urls(for: .libraryDirectory, in: .userDomainMask).first {
            return library.appendingPathComponent("Preferences", isDirectory: true)
        }
        #endif
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
    }

    /// Refuses a suite name that is empty or holds `/`, `..` or a control character (``PreferenceSourceError``
    /// with ``PreferenceSourceError/Code/badName``).
    public static func checkSuiteName(_ name: String) throws(PreferenceSourceError) {
        try PreferenceNames.check(name, source: .userDefaults)
    }

    /// The file Foundation keeps `suite` in.
    public func fileURL(forSuite suite: String) -> URL {
        directory.appendingPathComponent(suite + ".plist", isDirectory: false)
    }

    /// The suites in ``directory``, sorted: every `<name>.plist` file whose name is usable (``checkSuiteName(_:)``)
    /// and not hidden (`.GlobalPreferences.plist` and other dot files are Foundation's own). Empty when the folder
    /// does not exist.
    /// - Throws: ``PreferenceSourceError/Code/backend`` when the folder cannot be listed.
    public func suiteNames() throws(PreferenceSourceError) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
            throw .backend("cannot list the preferences folder \(directory.path): \(error.localizedDescription)")
        }
        return names.compactMap { file -> String? in
            guard file.hasSuffix(".plist"), !file.hasPrefix(".") else { return nil }
            let name = String(file.dropLast(6))
            guard (try? Self.checkSuiteName(name)) != nil else { return nil }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: fileURL(forSuite: name).path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { return nil }
            return name
        }.sorted()
    }

    /// The suite's keys as they are on disk now; `nil` when it has no file.
    /// - Throws: ``PreferenceSourceError/Code/badName`` for an unusable name, ``PreferenceSourceError/Code/backend``
    ///   when Foundation refuses the suite.
    public func read(suite: String) throws(PreferenceSourceError) -> ScannedSuite? {
        try Self.checkSuiteName(suite)
        let file = fileURL(forSuite: suite)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let modified = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date
        var scanned = ScannedSuite(name: suite, fileURL: file, modified: modified)
        for (key, object) in try freshDomain(suite) {
            do throws(PreferenceSourceError) {
                let (value, type) = try PlistConversion.decode(object, key: key)
                scanned.values[key] = value
                scanned.types[key] = type
            } catch {
                scanned.problems.append(error.message)
            }
        }
        return scanned
    }

    // MARK: Reading and writing single keys (the mirrors' write-through)

    /// What `key` holds on disk now (a property-list object), or `nil`.
    func rawValue(key: String, suite: String) throws(PreferenceSourceError) -> Any? {
        try freshDomain(suite)[key].flatMap(PlistConversion.unwrap)
    }

    /// Sets `key` to `object` (a property-list object; `nil` removes it) and saves the suite durably. When saving
    /// fails, the value in Foundation's memory is put back, so that a later save does not write what was refused.
    func write(_ object: Any?, key: String, suite: String) throws(PreferenceSourceError) {
        let defaults = try open(suite)
        // corelibs skips a set equal to its cached value: drop a stale cache first.
        _ = defaults.synchronize()
        let previous = defaults.persistentDomain(forName: domainName(suite))?[key].flatMap(PlistConversion.unwrap)
        if let object { defaults.set(object, forKey: key) } else { defaults.removeObject(forKey: key) }
        guard defaults.synchronize() else {
            if let previous { defaults.set(previous, forKey: key) } else { defaults.removeObject(forKey: key) }
            throw .backend(
                "UserDefaults could not save suite \(PreferenceNames.quoted(suite)) to \(fileURL(forSuite: suite).path)"
            )
        }
    }

    private func freshDomain(_ suite: String) throws(PreferenceSourceError) -> [String: Any] {
        let defaults = try open(suite)
        _ = defaults.synchronize()
        return defaults.persistentDomain(forName: domainName(suite)) ?? [:]
    }

    /// The name Foundation knows the suite by: its own name in Foundation's folder, its absolute path elsewhere.
    private func domainName(_ suite: String) -> String {
        isFoundationDirectory ? suite : directory.appendingPathComponent(suite, isDirectory: false).path
    }

    private func open(_ suite: String) throws(PreferenceSourceError) -> UserDefaults {
        try Self.checkSuiteName(suite)
        if let defaults = UserDefaults(suiteName: domainName(suite)) { return defaults }
        // Foundation refuses a suite named like the app itself: that one is the standard suite.
        if isFoundationDirectory, suite == Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName {
            return UserDefaults.standard
        }
        throw .backend("UserDefaults refused the suite name \(PreferenceNames.quoted(suite))")
    }
}

/// One UserDefaults suite as ``UserDefaultsScanner/read(suite:)`` found it.
///
/// ```swift
/// let suite = try UserDefaultsScanner().read(suite: "com.shop")
/// suite?.values["launched"]      // "2026-11-21T10:00:00.000000Z"
/// suite?.types["launched"]       // .date
/// ```
public struct ScannedSuite: Sendable, Hashable {
    /// The suite's name.
    public var name: String
    /// The file it is kept in.
    public var fileURL: URL
    /// The file's modification time.
    public var modified: Date?
    /// Every key of the suite's own domain with its value (docs/store.md form; dates and data as strings).
    public var values: [String: StoreValue] = [:]
    /// The stored type of each key of ``values``.
    public var types: [String: PreferenceValueType] = [:]
    /// Keys left out of ``values`` because their values have no StoreValue form, each with why.
    public var problems: [String] = []

    public init(name: String, fileURL: URL, modified: Date?) {
        self.name = name
        self.fileURL = fileURL
        self.modified = modified
    }

    /// Whether the suite holds a Keyscope store (a `keyscope.store` key): scanning skips it.
    public var holdsKeyscopeStore: Bool { values[UserDefaultsScanner.keyscopeStoreKey] != nil }
}
