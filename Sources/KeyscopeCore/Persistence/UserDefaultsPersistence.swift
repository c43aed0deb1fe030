import Foundation
import Synchronization

/// A store in a UserDefaults suite: each top-level key holds its value as JSON text (docs/store.md), beside the
/// suite's other preferences, which are left alone. One reserved key, `keyscope.store`, records which store owns
/// the suite, the data's version and the keys that are the store's
/// (`{"store": "app/userPrefs:com.shop", "version": "1.0.0", "keys": ["cart", "theme"]}`), so that a suite that
/// belongs to another store is never overwritten and the app's own preferences are never taken over.
///
/// corelibs Foundation (Linux) writes nothing until `synchronize()` and another process sees a change only after
/// it synchronises too, so every save synchronises.
final class UserDefaultsPersistence: PersistenceDriver {
    /// The key that holds the owner and version; a store in a suite cannot use it as a top-level key.
    static let reservedKey = "keyscope.store"

    let suiteName: String
    let storeID: StoreID
    /// The top-level keys this store last saved, so that keys it removed are removed from the suite too.
    private let savedKeys = Mutex<Set<String>>([])

    init(suiteName: String, storeID: StoreID) {
        self.suiteName = suiteName
        self.storeID = storeID
    }

    var reservedRootKeys: Set<String> { [Self.reservedKey] }

    func load() throws(StoreError) -> PersistedState? {
        let defaults = try suite()
        let domain = defaults.persistentDomain(forName: suiteName) ?? [:]
        guard let ownerText = domain[Self.reservedKey] as? String else { return nil }
        guard let owner = try? StoreValue(jsonText: ownerText), let ownerID = owner["store"]?.stringValue,
            let versionText = owner["version"]?.stringValue, let version = SemanticVersion(parsing: versionText),
            let keys = owner["keys"]?.arrayValue?.compactMap(\.stringValue)
        else {
            throw StoreError(code: .persistence, message: "suite \(suiteName) has a bad \(Self.reservedKey) entry")
        }
        guard ownerID == storeID.description else {
            throw StoreError(
                code: .persistence, message: "suite \(suiteName) holds the data of store \(ownerID), not \(storeID)")
        }
        var root: [String: StoreValue] = [:]
        for key in keys {
            guard let text = domain[key] as? String else { continue }  // removed by someone else meanwhile
            do {
                root[key] = try StoreValue(jsonText: text)
            } catch {
                throw StoreError(code: .persistence, message: "suite \(suiteName) key \"\(key)\": \(error)")
            }
        }
        savedKeys.withLock { $0 = Set(root.keys) }
        return PersistedState(root: .object(root), version: version)
    }

    func save(_ state: PersistedState) throws(StoreError) {
        let defaults = try suite()
        let members = state.root.objectValue ?? [:]
        for (key, value) in members { defaults.set(value.jsonText(sortedKeys: true), forKey: key) }
        let removed = savedKeys.withLock { $0.subtracting(members.keys) }
        for key in removed { defaults.removeObject(forKey: key) }
        let owner: StoreValue = [
            "store": .string(storeID.description), "version": .string(state.version.description),
            "keys": .array(members.keys.sorted().map(StoreValue.string)),
        ]
        defaults.set(owner.jsonText(sortedKeys: true), forKey: Self.reservedKey)
        guard defaults.synchronize() else {
            throw StoreError(code: .persistence, message: "UserDefaults could not save suite \(suiteName)")
        }
        savedKeys.withLock { $0 = Set(members.keys) }
    }

    private func suite() throws(StoreError) -> UserDefaults {
        guard let defaults = UserDefaults(suiteName: suiteName) else {
            throw StoreError(code: .persistence, message: "UserDefaults refused the suite name \"\(suiteName)\"")
        }
        return defaults
    }
}
