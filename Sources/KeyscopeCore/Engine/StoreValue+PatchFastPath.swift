extension StoreValue {
    /// Applies a recorded patch in one walk down its path when it fits the state exactly as ``apply(patch:)``
    /// requires, and returns `true`; returns `false`, having changed nothing, in every other case.
    ///
    /// Replay applies millions of patches, nearly all of which fit. ``apply(patch:)`` walks the path twice (once to
    /// read the value its `old` is compared with, once to write), builds the patch the write would record, and
    /// measures the depth of `new` with a work list; here the `old` is compared where the new value goes, nothing
    /// is recorded, and the depth is measured by a recursion that stops at the room left (at most
    /// ``StoreLimits/maxDepth`` levels, as every walk over a value). Whatever is unusual (the root set whole, a
    /// missing parent, a type or index that does not fit, an `old` that differs, a path or value past the limits)
    /// returns `false`, and ``apply(patch:)`` takes the patch the general way, which applies it or throws the error
    /// that says why not: the outcome of every patch is the general way's.
    mutating func applyIfFitting(_ patch: StorePatch) -> Bool {
        let path = patch.keyPath
        guard path.parseError == nil, path.segments.count <= StoreLimits.maxPathSegments else { return false }
        if let new = patch.newValue, !new.nests(within: StoreLimits.maxDepth - path.segments.count) { return false }
        guard let last = path.segments.last else {
            return patch.op == .merge && Self.merge(&self, patch)
        }
        return Self.atParent(&self, path.segments.dropLast()) { parent in
            switch patch.op {
            case .set: Self.set(&parent, last, patch)
            case .insert: Self.insert(&parent, last, patch)
            case .remove: Self.remove(&parent, last, patch)
            case .merge: Self.atChild(&parent, last) { target in Self.merge(&target, patch) }
            }
        }
    }

    /// Whether the value nests no deeper than `room` levels (as ``depth(limit:)`` counts them).
    func nests(within room: Int) -> Bool {
        switch self {
        case .array(let elements):
            guard room >= 1 else { return false }
            for element in elements where !element.nests(within: room - 1) { return false }
            return true
        case .object(let members):
            guard room >= 1 else { return false }
            for member in members.values where !member.nests(within: room - 1) { return false }
            return true
        case .color, .url: return room >= 1
        case .number(let number): return number.isFinite || room >= 1
        case .string, .integer, .bool, .null: return true
        }
    }

    /// Calls `body` with the value at `segments` in place (each container moved out of its case while it is
    /// changed, as ``TreeWalk`` does, so nothing is copied); `false` when something along the way is missing.
    private static func atParent(
        _ node: inout StoreValue, _ segments: ArraySlice<StoreKeyPath.Segment>, _ body: (inout StoreValue) -> Bool
    ) -> Bool {
        guard let segment = segments.first else { return body(&node) }
        let rest = segments.dropFirst()
        return atChild(&node, segment) { child in atParent(&child, rest, body) }
    }

    /// Calls `body` with the member or element `segment` of `node` in place; `false` when it is not there.
    private static func atChild(
        _ node: inout StoreValue, _ segment: StoreKeyPath.Segment, _ body: (inout StoreValue) -> Bool
    ) -> Bool {
        switch segment {
        case .key(let key):
            // One hash of the key: the member is changed through its index.
            guard case .object(var members) = node, let found = members.index(forKey: key) else { return false }
            node = .null
            defer { node = .object(members) }
            return body(&members.values[found])
        case .index(let index):
            guard case .array(var elements) = node, index < elements.count else { return false }
            node = .null
            defer { node = .array(elements) }
            return body(&elements[index])
        }
    }

    private static func set(_ parent: inout StoreValue, _ last: StoreKeyPath.Segment, _ patch: StorePatch) -> Bool {
        guard let new = patch.newValue else { return false }
        switch last {
        case .key(let key):
            guard case .object(var members) = parent else { return false }
            let found = members.index(forKey: key)
            guard (found.map { members.values[$0] }) == patch.oldValue else { return false }
            parent = .null
            if let found { members.values[found] = new } else { members[key] = new }
            parent = .object(members)
        case .index(let index):
            guard case .array(var elements) = parent, index <= elements.count else { return false }
            // Spelled out: a bare `nil` here would be read as StoreValue's nil literal, `.null`.
            let current: StoreValue? = index < elements.count ? .some(elements[index]) : .none
            guard current == patch.oldValue else { return false }
            parent = .null
            if index == elements.count { elements.append(new) } else { elements[index] = new }
            parent = .array(elements)
        }
        return true
    }

    private static func insert(_ parent: inout StoreValue, _ last: StoreKeyPath.Segment, _ patch: StorePatch) -> Bool {
        guard let new = patch.newValue, case .index(let index) = last, case .array(var elements) = parent,
            index <= elements.count
        else { return false }
        parent = .null
        elements.insert(new, at: index)
        parent = .array(elements)
        return true
    }

    private static func remove(_ parent: inout StoreValue, _ last: StoreKeyPath.Segment, _ patch: StorePatch) -> Bool {
        guard let old = patch.oldValue else { return false }
        switch last {
        case .key(let key):
            guard case .object(var members) = parent, members[key] == old else { return false }
            parent = .null
            members[key] = nil
            parent = .object(members)
        case .index(let index):
            guard case .array(var elements) = parent, index < elements.count, elements[index] == old else {
                return false
            }
            parent = .null
            elements.remove(at: index)
            parent = .array(elements)
        }
        return true
    }

    /// Sets the merge's members on `target` when each one's current value (or absence) is its `old`.
    private static func merge(_ target: inout StoreValue, _ patch: StorePatch) -> Bool {
        guard case .object(let new)? = patch.newValue, case .object(let old)? = patch.oldValue,
            case .object(var members) = target
        else { return false }
        for key in new.keys where members[key] != old[key] { return false }
        target = .null
        for (key, value) in new { members[key] = value }
        target = .object(members)
        return true
    }
}
