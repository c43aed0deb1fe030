import Foundation

/// A store in a UserDefaults suite: each top-level key holds its value as JSON text (VALUES.md), and the version
/// lives in a companion suite `<suite>.keyscope` so that no key of the data is reserved.
///
/// corelibs Foundation (Linux) writes nothing until `synchronize()`, so every save synchronises.
struct UserDefaultsPersistence: PersistenceDriver {
    let suiteName: String

    var metaSuiteName: String { suiteName + ".keyscope" }

    func load() throws(StoreError) -> PersistedState? {
        let defaults = try suite(suiteName)
        let meta = try suite(metaSuiteName)
        guard let versionText = meta.string(forKey: "version") else { return nil }
        guard let version = SemanticVersion(versionText) else {
            throw StoreError(code: .persistence, message: "suite \(metaSuiteName) has a bad version \"\(versionText)\"")
        }
        var root: [String: StoreValue] = [:]
        for (key, stored) in defaults.persistentDomain(forName: suiteName) ?? [:] {
            guard let text = stored as? String else { continue }
            do {
                root[key] = try StoreValue(jsonText: text)
            } catch {
                throw StoreError(code: .persistence, message: "suite \(suiteName) key \"\(key)\": \(error)")
            }
        }
        return PersistedState(root: .object(root), version: version)
    }

    func save(_ state: PersistedState) throws(StoreError) {
        let defaults = try suite(suiteName)
        let meta = try suite(metaSuiteName)
        var domain: [String: Any] = [:]
        for (key, value) in state.root.objectValue ?? [:] { domain[key] = value.jsonText(sortedKeys: true) }
        defaults.setPersistentDomain(domain, forName: suiteName)
        meta.setPersistentDomain(["version": state.version.description], forName: metaSuiteName)
        guard defaults.synchronize(), meta.synchronize() else {
            throw StoreError(code: .persistence, message: "UserDefaults could not save suite \(suiteName)")
        }
    }

    private func suite(_ name: String) throws(StoreError) -> UserDefaults {
        guard let defaults = UserDefaults(suiteName: name) else {
            throw StoreError(code: .persistence, message: "UserDefaults refused the suite name \"\(name)\"")
        }
        return defaults
    }
}
