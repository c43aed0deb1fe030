extension StorePatch {
    /// The patches that undo this one, computed from its own fields (docs/store.md): set ↔ set back or remove,
    /// insert ↔ remove, element remove ↔ insert, key remove ↔ set, merge ↔ set back old keys and remove new ones.
    public func inverted() -> [StorePatch] {
        switch op {
        case .set:
            if let oldValue {
                return [StorePatch(op: .set, keyPath: keyPath, oldValue: newValue, newValue: oldValue)]
            }
            return [StorePatch(op: .remove, keyPath: keyPath, oldValue: newValue)]
        case .insert:
            return [StorePatch(op: .remove, keyPath: keyPath, oldValue: newValue)]
        case .remove:
            if case .index = keyPath.last {
                return [StorePatch(op: .insert, keyPath: keyPath, newValue: oldValue)]
            }
            return [StorePatch(op: .set, keyPath: keyPath, newValue: oldValue)]
        case .merge:
            let old = oldValue?.objectValue ?? [:]
            let new = newValue?.objectValue ?? [:]
            var patches: [StorePatch] = []
            for key in new.keys.sorted() {
                let path = keyPath.appending(key: key)
                if let previous = old[key] {
                    patches.append(StorePatch(op: .set, keyPath: path, oldValue: new[key], newValue: previous))
                } else {
                    patches.append(StorePatch(op: .remove, keyPath: path, oldValue: new[key]))
                }
            }
            return patches
        }
    }
}

extension StoreChange {
    /// The change that undoes this one: every patch inverted, in reverse order, in the same store.
    /// The inverse of a transaction is again a transaction (a fresh id is given when it is applied).
    public func inverted() -> StoreChange {
        StoreChange(
            storeID: storeID,
            patches: patches.reversed().flatMap { $0.inverted() },
            transactionID: transactionID
        )
    }
}
