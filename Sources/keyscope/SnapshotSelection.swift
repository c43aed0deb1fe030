import KeyscopeCore

/// What `keyscope snapshot` prints from a `snapshot` message: all of it, one store's root, or the value at a path.
///
/// ```swift
/// try SnapshotSelection.select(snapshot, store: "app/memory", path: "cart.total")   // 90
/// ```
enum SnapshotSelection {
    /// The whole message without `store` and `path`; the root of `store`; the value at `path` in it. A `path`
    /// without `store` is taken in the only store, when there is just one.
    static func select(_ snapshot: StoreValue, store: String?, path: String?) throws(CommandFailure) -> StoreValue {
        guard store != nil || path != nil else { return snapshot }
        let stores = snapshot["stores"]?.arrayValue ?? []
        let ids = KnownStores.ids(in: snapshot)
        let available = ids.isEmpty ? "the server has no stores" : "its stores: \(ids.joined(separator: ", "))"
        let id: String
        if let store {
            id = store
        } else if ids.count == 1 {
            id = ids[0]
        } else {
            throw CommandFailure("--path needs --store ID to say which store to look in (\(available))")
        }
        guard let entry = stores.first(where: { $0["id"]?.stringValue == id }) else {
            throw CommandFailure(KnownStores.unknown(id, among: ids))
        }
        let root = entry["root"] ?? .object([:])
        guard let path else { return root }
        let keyPath: StoreKeyPath
        do {
            keyPath = try StoreKeyPath(parsing: path)
        } catch {
            throw CommandFailure("--path \"\(path)\" is not a key path: \(error)")
        }
        guard let value = root[keyPath] else {
            throw CommandFailure("nothing at \(keyPath.isRoot ? "the root" : keyPath.description) in \(id)")
        }
        return value
    }
}
