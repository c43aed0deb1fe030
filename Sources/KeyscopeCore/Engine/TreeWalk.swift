/// In-place navigation of a value tree for the write operations.
///
/// Each step moves the child out of its enum case before mutating it (`node = .null`), so that nested arrays and
/// dictionaries stay uniquely referenced and are mutated without copying. Never match on a tuple such as
/// `(segment, node)`: the tuple holds one more reference to the container, and every write would copy it. For the
/// same reason a step lets go of its copy of the container before `missing` changes it in `node`: holding it made
/// every new key below an existing one copy that whole object.
enum TreeWalk {
    typealias Segment = StoreKeyPath.Segment

    /// Calls `body` with the value at the first `end` segments of `path` (in place), walking from segment `depth`.
    /// When a key or index along the way is absent, calls `missing` with the container that lacks it and the
    /// position of the missing segment in `path`.
    static func modify<R>(
        _ node: inout StoreValue,
        _ path: StoreKeyPath,
        to end: Int,
        from depth: Int = 0,
        missing: (inout StoreValue, Int) throws(StoreError) -> R,
        _ body: (inout StoreValue) throws(StoreError) -> R
    ) throws(StoreError) -> R {
        guard depth < end else { return try body(&node) }
        switch path.segments[depth] {
        case .key(let key):
            guard case .object(var members) = node else {
                throw mismatch(node, wanted: "an object", for: "a name", at: path, depth: depth)
            }
            // One hash of the key: its index, then the value at that index in place.
            guard let index = members.index(forKey: key) else {
                members = [:]  // let go of the container, so that `missing` finds it uniquely referenced in `node`
                return try missing(&node, depth)
            }
            node = .null
            defer { node = .object(members) }
            return try modify(&members.values[index], path, to: end, from: depth + 1, missing: missing, body)
        case .index(let index):
            guard case .array(var elements) = node else {
                throw mismatch(node, wanted: "an array", for: "an index", at: path, depth: depth)
            }
            guard index < elements.count else {
                elements = []  // as above
                return try missing(&node, depth)
            }
            node = .null
            defer { node = .array(elements) }
            return try modify(&elements[index], path, to: end, from: depth + 1, missing: missing, body)
        }
    }

    static func prefix(_ path: StoreKeyPath, _ count: Int) -> StoreKeyPath {
        StoreKeyPath(segments: Array(path.segments.prefix(count)))
    }

    static func mismatch(_ node: StoreValue, wanted: String, for what: String, at path: StoreKeyPath, depth: Int)
        -> StoreError
    {
        let container = prefix(path, depth)
        let place = container.isRoot ? "the root" : "\"\(container)\""
        return .typeMismatch("\(place) is \(article(node.typeName)), \(what) needs \(wanted) there", at: path)
    }

    static func article(_ typeName: String) -> String {
        ["a", "e", "i", "o", "u"].contains(typeName.first.map(String.init) ?? "") ? "an \(typeName)" : "a \(typeName)"
    }

    /// The object `{k1: {k2: … value}}` for a run of key segments.
    static func nested(_ keys: ArraySlice<Segment>, _ value: StoreValue) -> StoreValue {
        keys.reversed().reduce(value) { inner, segment in
            if case .key(let key) = segment { return .object([key: inner]) }
            return inner
        }
    }
}
