/// The limits every store enforces on what a write may build, whichever way the write comes (the Swift API, a
/// transaction, the inspector's WebSocket and HTTP requests, tunables, preferences, revert, rewind, replay).
///
/// A write past one of them is refused before anything changes: a path longer than ``maxPathSegments`` with
/// ``StoreError/Code/badPath``, a value that would nest deeper than ``maxDepth`` with
/// ``StoreError/Code/tooLarge``. Every tree walk over a value (JSON writers and readers, equality, hashing,
/// diffs, patch inversion, snapshots, the UserDefaults conversion) recurses at most once per level, so these
/// bounds keep them well inside the smallest thread stack they run on (512 KiB, tested in the core's tests).
///
/// ```swift
/// let deep = StoreKeyPath(segments: Array(repeating: .key("a"), count: StoreLimits.maxPathSegments + 1))
/// try store.apply(.set(deep, 1))   // throws bad_path: the path has 513 segments, at most 512 are allowed
/// ```
public enum StoreLimits {
    /// The most segments a key path may have in a store operation.
    public static let maxPathSegments = 512
    /// The deepest nesting of arrays and objects a store's state may have, counted as JSON counts it: the root
    /// object is level 1, each array or object inside adds one, and a tagged value (`{"$color": …}`,
    /// `{"$url": …}`, a non-finite number) is an object too. Equal to ``JSONLimits/defaultMaxDepth``, so that a
    /// whole store decodes with the default limit wherever it is read.
    public static let maxDepth = JSONLimits.defaultMaxDepth
}

extension StoreValue {
    /// The value's JSON nesting depth: 0 for a plain scalar, 1 for a tagged scalar or an empty array or object,
    /// one more than its deepest element or member otherwise. Counted without recursion, so any value may be
    /// measured; counting stops once `limit` is passed (the result is then `limit + 1`).
    ///
    /// ```swift
    /// StoreValue.integer(1).depth()          // 0
    /// (["a": [1]] as StoreValue).depth()      // 2
    /// ```
    public func depth(limit: Int = .max) -> Int {
        switch self {
        case .array, .object: break
        case .color, .url: return 1
        case .number(let d): return d.isFinite ? 0 : 1
        default: return 0
        }
        var deepest = 0
        var pending: [(StoreValue, Int)] = [(self, 1)]
        while let (value, level) = pending.popLast() {
            switch value {
            case .array(let elements):
                deepest = Swift.max(deepest, level)
                for element in elements { pending.append((element, level + 1)) }
            case .object(let members):
                deepest = Swift.max(deepest, level)
                for member in members.values { pending.append((member, level + 1)) }
            case .color, .url:
                deepest = Swift.max(deepest, level)
            case .number(let d) where !d.isFinite:
                deepest = Swift.max(deepest, level)
            default:
                deepest = Swift.max(deepest, level - 1)
            }
            if deepest > limit { return limit + 1 }
        }
        return deepest
    }

    /// Refuses `value` when, placed at `path` (whose length is already checked), it would make the tree nest
    /// deeper than ``StoreLimits/maxDepth``.
    static func checkDepth(of value: StoreValue, at path: StoreKeyPath) throws(StoreError) {
        let room = StoreLimits.maxDepth - path.segments.count
        // A plain scalar, the common value, nests nowhere: no walk to count.
        switch value {
        case .string, .integer, .bool, .null: if room >= 0 { return }
        default: break
        }
        let depth = value.depth(limit: room)
        guard depth > room else { return }
        let place = path.isRoot ? "at the root" : "at \"\(path.abbreviated)\" (\(path.segments.count) levels down)"
        throw StoreError(
            code: .tooLarge,
            message: "the value nests more than \(room) levels deep \(place): a store nests at most "
                + "\(StoreLimits.maxDepth) levels of arrays and objects; store deep data flatter, or as a string",
            keyPath: path.segments.count <= StoreKeyPath.abbreviatedSegments ? path.description : nil)
    }
}

extension StoreKeyPath {
    /// How many segments an error message shows of a path before it cuts it short.
    static let abbreviatedSegments = 8

    /// The canonical form, or its first segments and `…` for a longer path (error messages stay short).
    var abbreviated: String {
        guard segments.count > Self.abbreviatedSegments else { return description }
        return KeyPathPrinter.canonical(Array(segments.prefix(Self.abbreviatedSegments))) + "…"
    }
}
