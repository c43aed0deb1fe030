/// In-place navigation of a value tree for the write operations.
///
/// Each step moves the child out of its enum case before mutating it (`node = .null`), so that nested arrays and
/// dictionaries stay uniquely referenced and are mutated without copying. Never match on a tuple such as
/// `(segment, node)`: the tuple holds one more reference to the container, and every write would copy it.
enum TreeWalk {
    typealias Segment = StoreKeyPath.Segment

    /// Calls `body` with the value at `segments` (in place). When a key or index along the way is absent, calls
    /// `missing` with the container that lacks it and the position of the missing segment in `path`.
    static func modify<R>(
        _ node: inout StoreValue,
        _ segments: ArraySlice<Segment>,
        _ path: StoreKeyPath,
        missing: (inout StoreValue, Int) throws(StoreError) -> R,
        _ body: (inout StoreValue) throws(StoreError) -> R
    ) throws(StoreError) -> R {
        guard let segment = segments.first else { return try body(&node) }
        let depth = segments.startIndex  // `segments` is a slice of `path.segments`, indexed alike
        let rest = segments.dropFirst()
        switch segment {
        case .key(let key):
            guard case .object(var members) = node else {
                throw mismatch(node, wanted: "an object", for: "a name", at: path, depth: depth)
            }
            guard members[key] != nil else { return try missing(&node, depth) }
            node = .null
            defer { node = .object(members) }
            return try modify(&members[key]!, rest, path, missing: missing, body)
        case .index(let index):
            guard case .array(var elements) = node else {
                throw mismatch(node, wanted: "an array", for: "an index", at: path, depth: depth)
            }
            guard index < elements.count else { return try missing(&node, depth) }
            node = .null
            defer { node = .array(elements) }
            return try modify(&elements[index], rest, path, missing: missing, body)
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
