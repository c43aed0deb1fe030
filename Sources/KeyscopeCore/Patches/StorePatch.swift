public import Foundation

/// One recorded edit of a store, exactly as docs/store.md "Patches" records it.
///
/// ```swift
/// // {"op": "set", "path": "cart.total", "old": 90, "new": 100}
/// let patch = StorePatch(op: .set, keyPath: "cart.total", oldValue: 90, newValue: 100)
/// patch.inverted()   // [set cart.total 100 → 90]
/// ```
public struct StorePatch: Sendable, Hashable {
    /// The kind of edit.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        case set, insert, remove, merge
    }

    public var op: Operation
    public var keyPath: StoreKeyPath
    /// What was there before; `nil` when nothing was. For `merge`, the previous values of exactly the merged keys
    /// that existed (`{}` when none did).
    public var oldValue: StoreValue?
    /// What is there after; `nil` for a remove. For `merge`, the merged-in object.
    public var newValue: StoreValue?

    public init(op: Operation, keyPath: StoreKeyPath, oldValue: StoreValue? = nil, newValue: StoreValue? = nil) {
        self.op = op
        self.keyPath = keyPath
        self.oldValue = oldValue
        self.newValue = newValue
    }
}

extension StorePatch: CustomStringConvertible {
    public var description: String { jsonObject.jsonText(sortedKeys: true) }
}

/// One atomic change of one store: a single write or a whole transaction, with its patches in order.
public struct StoreChange: Sendable, Hashable {
    /// The store the change happened in.
    public var storeID: StoreID
    /// The patches, in the order they were made.
    public var patches: [StorePatch]
    /// Set for changes made by a transaction; `nil` for single writes.
    public var transactionID: UUID?
    /// The instance the change came from when a live backend brought it from another one (docs/fleet.md `"origin"`);
    /// `nil` for changes made here.
    public var origin: String?

    public init(storeID: StoreID, patches: [StorePatch], transactionID: UUID? = nil, origin: String? = nil) {
        self.storeID = storeID
        self.patches = patches
        self.transactionID = transactionID
        self.origin = origin
    }
}
