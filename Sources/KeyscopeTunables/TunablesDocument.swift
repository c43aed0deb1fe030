import Foundation
import KeyscopeCore

/// The values file's form: one flat JSON object of tunable key → value (docs/store.md), and the one way a whole new set
/// of values reaches the store.
enum TunablesDocument {
    /// The values in `data`, or ``TunablesError/Code/badFile`` naming `path`, the byte offset and the reason.
    static func values(from data: Data, path: String, what: String) throws(TunablesError) -> [String: StoreValue] {
        let value: StoreValue
        do {
            value = try StoreValue(jsonData: data)
        } catch {
            throw TunablesError(
                code: .badFile,
                message: "the \(what) \(path) does not parse at byte \(error.offset): \(error.reason); "
                    + "fix the JSON there (the file was left as it is)")
        }
        guard case .object(let values) = value else {
            throw TunablesError(
                code: .badFile,
                message: "the \(what) \(path) must be a JSON object of tunable key → value, found \(value.typeName)")
        }
        return values
    }

    /// The path of the top-level key `key` (built from segments, so keys with dots or brackets stay one key).
    static func path(_ key: String) -> StoreKeyPath { StoreKeyPath(segments: [.key(key)]) }

    /// Makes the store hold exactly `target`, as one change (one transaction) that touches only the keys that
    /// differ; nothing is recorded when nothing differs. Returns whether anything changed.
    @discardableResult
    static func replace(_ store: KeyValueStore, with target: [String: StoreValue]) throws(TunablesError) -> Bool {
        do {
            return try store.transaction { tx -> Bool in
                let current = tx.get(.root)?.objectValue ?? [:]
                var changed = false
                for key in current.keys.sorted() where target[key] == nil {
                    try tx.remove(path(key))
                    changed = true
                }
                for key in target.keys.sorted() where current[key] != target[key] {
                    try tx.set(path(key), target[key]!)
                    changed = true
                }
                return changed
            }
        } catch {
            throw TunablesError(code: .store, message: "the store \(store.id) refused the change: \(error)")
        }
    }
}
