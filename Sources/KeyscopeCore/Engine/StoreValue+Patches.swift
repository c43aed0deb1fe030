extension StoreValue {
    /// Applies a recorded patch to this root, first checking that its `old` matches the state (presence included).
    /// Used by replay, revert and rewind; a patch that does not apply throws and changes nothing.
    public mutating func apply(patch: StorePatch) throws(StoreError) {
        // Nearly every recorded patch fits: one walk does it (see applyIfFitting); the general steps say why not.
        if applyIfFitting(patch) { return }
        try applyGenerally(patch)
    }

    /// ``apply(patch:)`` step by step: the reference for ``applyIfFitting(_:)``, and where every error comes from.
    mutating func applyGenerally(_ patch: StorePatch) throws(StoreError) {
        let path = try patch.keyPath.validated()
        if let new = patch.newValue { try Self.checkDepth(of: new, at: path) }
        switch patch.op {
        case .set:
            guard let new = patch.newValue else { throw .badRequest("a set patch needs a new value", at: path) }
            try expect(patch.oldValue, at: path)
            _ = try applySet(path, new, createIntermediates: false)
        case .insert:
            guard let new = patch.newValue else { throw .badRequest("an insert patch needs a new value", at: path) }
            _ = try applyInsert(path, new)
        case .remove:
            guard let old = patch.oldValue else { throw .badRequest("a remove patch needs an old value", at: path) }
            try expect(old, at: path)
            _ = try applyRemove(path)
        case .merge:
            guard case .object(let new)? = patch.newValue, case .object(let old)? = patch.oldValue else {
                throw .badRequest("a merge patch needs old and new objects", at: path)
            }
            guard case .object(let target)? = self[path] else {
                throw .conflict("a merge patch needs an object at \"\(path)\"", at: path)
            }
            // The smallest key that differs, so that the message is the same on every run (dictionary order
            // is not): found by fuzz-recording.
            if let key = new.keys.lazy.filter({ target[$0] != old[$0] }).min() {
                throw .conflict(
                    "\"\(path.appending(key: key))\" is \(Self.describe(target[key])), the patch expected "
                        + Self.describe(old[key]), at: path)
            }
            _ = try applyMerge(path, new, createIntermediates: false)
        }
    }

    /// Applies every patch of a change, all or nothing.
    public mutating func apply(change: StoreChange) throws(StoreError) {
        var copy = self
        for patch in change.patches { try copy.apply(patch: patch) }
        self = copy
    }

    private func expect(_ expected: StoreValue?, at path: StoreKeyPath) throws(StoreError) {
        let current = self[path]
        guard current == expected else {
            throw .conflict(
                "\"\(path)\" is \(Self.describe(current)), the patch expected \(Self.describe(expected))",
                at: path)
        }
    }

    static func describe(_ value: StoreValue?) -> String {
        guard let value else { return "absent" }
        let text = value.jsonText(sortedKeys: true)
        return text.count > 80 ? String(text.prefix(77)) + "..." : text
    }
}
