extension StoreValue {
    /// Applies `operation` to this root object in place and returns the patch it records (`nil` for a no-op remove).
    /// On error nothing is changed. (`borrowing`: the path and value are used where they are, not copied out of the
    /// operation, which cost a write two reference counts.)
    mutating func apply(_ operation: borrowing StoreOperation) throws(StoreError) -> StorePatch? {
        // The limits first (StoreLimits), so that nothing deeper than the walks below were sized for is built.
        switch operation {
        case .set(let path, let value):
            try path.validate()
            try Self.checkDepth(of: value, at: path)
            return try applySet(path, value, createIntermediates: true)
        case .insert(let path, let value):
            try path.validate()
            try Self.checkDepth(of: value, at: path)
            return try applyInsert(path, value)
        case .remove(let path):
            try path.validate()
            return try applyRemove(path)
        case .merge(let path, let members):
            try path.validate()
            try Self.checkDepth(of: .object(members), at: path)
            return try applyMerge(path, members, createIntermediates: true)
        }
    }

    /// Applies `operation` like ``apply(_:)`` without recording its patch, for a write nobody hears of: whether it
    /// changed anything (`false` only for a remove of nothing). A set, the common write, then makes no patch at
    /// all; the other operations make theirs and drop it.
    mutating func applyUnrecorded(_ operation: borrowing StoreOperation) throws(StoreError) -> Bool {
        switch operation {
        case .set(let path, let value):
            try path.validate()
            try Self.checkDepth(of: value, at: path)
            if setIfPresent(path.segments, value) != nil { return true }
            _ = try setValue(path, value, createIntermediates: true)
            return true
        default:
            return try apply(copy operation) != nil
        }
    }

    mutating func applySet(_ path: StoreKeyPath, _ value: StoreValue, createIntermediates: Bool)
        throws(StoreError) -> StorePatch
    {
        if let old = setIfPresent(path.segments, value) {
            return StorePatch(op: .set, keyPath: path, oldValue: old, newValue: value)
        }
        return switch try setValue(path, value, createIntermediates: createIntermediates) {
        case .replaced(let old): StorePatch(op: .set, keyPath: path, oldValue: old, newValue: value)
        case .created(let patch): patch
        }
    }

    /// What a set did to the tree: replaced what was at its path (`nil` when nothing was), or created a missing
    /// parent on the way, recorded as a set of that parent.
    enum SetOutcome {
        case replaced(StoreValue?)
        case created(StorePatch)
    }

    /// A set without its patch: ``applySet(_:_:createIntermediates:)`` writes the patch from this, and a write that
    /// nobody hears of (see `KeyValueStore.applyOne`) skips it.
    mutating func setValue(_ path: StoreKeyPath, _ value: StoreValue, createIntermediates: Bool)
        throws(StoreError) -> SetOutcome
    {
        guard let last = path.last else {
            guard case .object = value else { throw .typeMismatch("the root must be an object", at: path) }
            let old = self
            self = value
            return .replaced(old)
        }
        return try TreeWalk.modify(
            &self, path, to: path.segments.count - 1,
            missing: { container, depth throws(StoreError) in
                .created(
                    try Self.create(in: &container, at: depth, of: path, value: value, allowed: createIntermediates))
            },
            { parent throws(StoreError) in
                let depth = path.segments.count - 1
                switch last {
                case .key(let key):
                    guard case .object(var members) = parent else {
                        throw TreeWalk.mismatch(parent, wanted: "an object", for: "a name", at: path, depth: depth)
                    }
                    parent = .null
                    let old = members.updateValue(value, forKey: key)
                    parent = .object(members)
                    return .replaced(old)
                case .index(let index):
                    guard case .array(var elements) = parent else {
                        throw TreeWalk.mismatch(parent, wanted: "an array", for: "an index", at: path, depth: depth)
                    }
                    guard index <= elements.count else { throw Self.pastEnd(index, elements.count, path) }
                    parent = .null
                    defer { parent = .array(elements) }
                    if index == elements.count {
                        elements.append(value)
                        return .replaced(nil)
                    }
                    let old = elements[index]
                    elements[index] = value
                    return .replaced(old)
                }
            })
    }

    mutating func applyInsert(_ path: StoreKeyPath, _ value: StoreValue) throws(StoreError) -> StorePatch {
        guard case .index(let index)? = path.last else {
            throw .badRequest("insert needs a path that ends in an index, like items[0]", at: path)
        }
        return try TreeWalk.modify(
            &self, path, to: path.segments.count - 1,
            missing: { _, depth throws(StoreError) in throw Self.nothingAt(path, depth, wanted: "an array") },
            { parent throws(StoreError) in
                guard case .array(var elements) = parent else {
                    throw TreeWalk.mismatch(
                        parent, wanted: "an array", for: "an index", at: path,
                        depth: path.segments.count - 1)
                }
                guard index <= elements.count else { throw Self.pastEnd(index, elements.count, path) }
                parent = .null
                elements.insert(value, at: index)
                parent = .array(elements)
                return StorePatch(op: .insert, keyPath: path, newValue: value)
            })
    }

    mutating func applyRemove(_ path: StoreKeyPath) throws(StoreError) -> StorePatch? {
        guard let last = path.last else { throw .badRequest("the root cannot be removed; set it to {} instead") }
        return try TreeWalk.modify(
            &self, path, to: path.segments.count - 1,
            missing: { _, _ in nil },
            { parent throws(StoreError) in
                let depth = path.segments.count - 1
                switch last {
                case .key(let key):
                    guard case .object(var members) = parent else {
                        throw TreeWalk.mismatch(parent, wanted: "an object", for: "a name", at: path, depth: depth)
                    }
                    guard members[key] != nil else { return nil }
                    parent = .null
                    let old = members.removeValue(forKey: key)
                    parent = .object(members)
                    return StorePatch(op: .remove, keyPath: path, oldValue: old)
                case .index(let index):
                    guard case .array(var elements) = parent else {
                        throw TreeWalk.mismatch(parent, wanted: "an array", for: "an index", at: path, depth: depth)
                    }
                    guard index < elements.count else { return nil }
                    parent = .null
                    let old = elements.remove(at: index)
                    parent = .array(elements)
                    return StorePatch(op: .remove, keyPath: path, oldValue: old)
                }
            })
    }

    mutating func applyMerge(_ path: StoreKeyPath, _ members: [String: StoreValue], createIntermediates: Bool)
        throws(StoreError) -> StorePatch
    {
        func mergeInto(_ target: inout StoreValue) throws(StoreError) -> StorePatch {
            guard case .object(var existing) = target else {
                let place = path.isRoot ? "the root" : "\"\(path)\""
                throw .typeMismatch(
                    "\(place) is \(TreeWalk.article(target.typeName)), merge needs an object",
                    at: path)
            }
            target = .null
            var old: [String: StoreValue] = [:]
            for (key, value) in members {
                if let previous = existing.updateValue(value, forKey: key) { old[key] = previous }
            }
            target = .object(existing)
            return StorePatch(op: .merge, keyPath: path, oldValue: .object(old), newValue: .object(members))
        }
        return try TreeWalk.modify(
            &self, path, to: path.segments.count,
            missing: { container, depth throws(StoreError) in
                try Self.create(
                    in: &container, at: depth, of: path, value: .object(members),
                    allowed: createIntermediates)
            },
            mergeInto)
    }

    /// Creates the missing key at `depth` of `path` (and the objects below it), recorded as a `set` at that key.
    private static func create(
        in container: inout StoreValue, at depth: Int, of path: StoreKeyPath, value: StoreValue, allowed: Bool
    ) throws(StoreError) -> StorePatch {
        let segments = path.segments
        switch segments[depth] {
        case .key(let key):
            guard case .object(var members) = container else { throw nothingAt(path, depth, wanted: "a value") }
            guard allowed || depth == segments.count - 1 else { throw nothingAt(path, depth + 1, wanted: "a value") }
            let below = segments[(depth + 1)...]
            if let index = below.firstIndex(where: { if case .index = $0 { true } else { false } }) {
                throw nothingAt(path, index, wanted: "an array")
            }
            let created = TreeWalk.nested(below, value)
            container = .null
            members[key] = created
            container = .object(members)
            return StorePatch(op: .set, keyPath: TreeWalk.prefix(path, depth + 1), newValue: created)
        case .index(let index):
            guard case .array(var elements) = container else { throw nothingAt(path, depth, wanted: "a value") }
            // Only the last segment may append; deeper paths need the element to exist.
            guard index == elements.count, depth == segments.count - 1 else {
                throw pastEnd(index, elements.count, TreeWalk.prefix(path, depth + 1))
            }
            container = .null
            elements.append(value)
            container = .array(elements)
            return StorePatch(op: .set, keyPath: path, newValue: value)
        }
    }

    static func pastEnd(_ index: Int, _ count: Int, _ path: StoreKeyPath) -> StoreError {
        .outOfRange(
            "index \(index) is past the end of an array of \(count) (the largest allowed here is \(count))",
            at: path)
    }

    static func nothingAt(_ path: StoreKeyPath, _ depth: Int, wanted: String) -> StoreError {
        let place = TreeWalk.prefix(path, depth)
        return .typeMismatch("there is no value at \"\(place)\"; \(wanted) is needed there", at: path)
    }
}
