/// A write request, before it is applied: what a client, a transaction or a store method asks for.
///
/// ```swift
/// try store.apply(.set("cart.total", 100))
/// try store.apply([.insert("items[0]", ["title": "Tea"]), .remove("cart.coupon")])
/// ```
public enum StoreOperation: Sendable, Hashable {
    /// Sets the value at a path, creating missing intermediate objects (StoreValue `set`).
    case set(StoreKeyPath, StoreValue)
    /// Inserts into an array at an index `≤ count`; later elements shift up.
    case insert(StoreKeyPath, StoreValue)
    /// Removes a key or an array element; a missing one is a no-op.
    case remove(StoreKeyPath)
    /// Sets each key of the object on the object at the path (created if missing). Not recursive.
    case merge(StoreKeyPath, [String: StoreValue])

    /// The path the operation addresses.
    public var keyPath: StoreKeyPath {
        switch self {
        case .set(let p, _), .insert(let p, _), .remove(let p), .merge(let p, _): p
        }
    }
}

extension StoreOperation {
    /// The operation that records exactly `patch` on a state where the patch applies (its `old` checked first,
    /// e.g. with ``StoreValue/apply(patch:)``): revert, rewind and replay apply recorded patches this way.
    ///
    /// ```swift
    /// let patch = StorePatch(op: .set, keyPath: "cart.total", oldValue: 90, newValue: 100)
    /// StoreOperation(recording: patch)   // .set("cart.total", 100)
    /// ```
    public init(recording patch: StorePatch) {
        switch patch.op {
        case .set: self = .set(patch.keyPath, patch.newValue ?? .null)
        case .insert: self = .insert(patch.keyPath, patch.newValue ?? .null)
        case .remove: self = .remove(patch.keyPath)
        case .merge: self = .merge(patch.keyPath, patch.newValue?.objectValue ?? [:])
        }
    }

    /// Refuses an operation that would write one of the storage's reserved top-level keys.
    func checkReserved(_ reserved: Set<String>, in store: StoreID) throws(StoreError) {
        let key: String?
        switch (keyPath.segments.first, self) {
        case (.key(let first)?, _): key = reserved.contains(first) ? first : nil
        case (nil, .set(_, .object(let members))), (nil, .merge(_, let members)):
            key = members.keys.first(where: reserved.contains)
        default: key = nil
        }
        if let key {
            throw StoreError(
                code: .badRequest, message: "the top-level key \"\(key)\" is reserved by the storage of \(store)",
                keyPath: keyPath.description)
        }
    }
}
