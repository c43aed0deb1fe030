/// A parsed key path such as `cart.total`, `items[0].title` or `prefs["com.app.theme"]` (docs/store.md "Key paths").
///
/// Every store operation takes the parsed form. A literal is parsed each time the code runs, but each thread keeps the
/// paths it parsed last (KeyPathCache), so writing the same literal again costs a short lookup; a path kept as a value
/// costs nothing at all.
/// ```swift
/// let total = try StoreKeyPath(parsing: "cart.total")
/// store.set(total, 100)
/// store.set("cart.note", "hi")     // the literal is parsed (or found in this thread's cache) on every call
/// ```
/// A literal that does not parse never traps: the path remembers its error, and any operation using it is refused
/// with ``StoreError/badPath(_:)`` (thrown, or reported through the logger by the non-throwing forms).
public struct StoreKeyPath: Sendable, Hashable {
    /// One step of a path.
    public enum Segment: Sendable, Hashable {
        /// An object key (a name or a quoted key: `stats.2024` is the key `"2024"`).
        case key(String)
        /// An array index.
        case index(Int)

        /// The key or the index alone, without the case: equal segments still hash alike, and a key and an index
        /// that happen to collide are told apart by `==`. Paths are hashed on the write path (a transaction's
        /// recorder, the subscriptions' index), where the case's word was one more SipHash block per segment.
        public func hash(into hasher: inout Hasher) {
            switch self {
            case .key(let key): hasher.combine(key)
            case .index(let index): hasher.combine(index)
            }
        }
    }

    /// The steps from the root; empty for the root itself.
    public let segments: [Segment]
    /// The error of a literal that failed to parse, boxed: a path is copied into every operation and patch, and an
    /// optional error held inline (two strings and a column) made each copy and release several times dearer
    /// than the one reference of the box.
    private let invalid: InvalidPath?

    /// Set only for a literal that failed to parse; such a path is never used for an operation.
    public var parseError: KeyPathParseError? { invalid?.error }

    /// The root path `""`.
    public static let root = StoreKeyPath(segments: [])

    /// A path from already validated segments.
    public init(segments: [Segment]) {
        self.segments = segments
        self.invalid = nil
    }

    /// Parses `text`, throwing an error that names the 1-based column where parsing failed.
    public init(parsing text: String) throws(KeyPathParseError) {
        self.segments = try KeyPathParser.parse(text)
        self.invalid = nil
    }

    private init(invalid error: KeyPathParseError) {
        self.segments = []
        self.invalid = InvalidPath(error: error)
    }

    public static func == (lhs: StoreKeyPath, rhs: StoreKeyPath) -> Bool {
        lhs.segments == rhs.segments && lhs.parseError == rhs.parseError
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(segments)
        // Nearly every path parsed: nothing more to hash then (an unparsable one has no segments, and its error).
        if let parseError { hasher.combine(parseError) }
    }

    /// Whether this is the root path.
    public var isRoot: Bool { segments.isEmpty && parseError == nil }

    /// The path without its last segment; the root's parent is the root.
    public var parent: StoreKeyPath { StoreKeyPath(segments: Array(segments.dropLast())) }

    /// The last segment, `nil` for the root.
    public var last: Segment? { segments.last }

    /// This path with one more segment.
    public func appending(_ segment: Segment) -> StoreKeyPath {
        StoreKeyPath(segments: segments + [segment])
    }

    /// This path followed by the key `key`.
    public func appending(key: String) -> StoreKeyPath { appending(.key(key)) }

    /// This path followed by the index `index`.
    public func appending(index: Int) -> StoreKeyPath { appending(.index(index)) }

    /// Whether `self` is `other` or one of its ancestors (`cart` is a prefix of `cart.total`; the root of all).
    public func isPrefix(of other: StoreKeyPath) -> Bool {
        segments.count <= other.segments.count && other.segments.starts(with: segments)
    }

    /// Whether one path is a prefix of the other: a write to either can change what is at the other.
    public func overlaps(_ other: StoreKeyPath) -> Bool {
        isPrefix(of: other) || other.isPrefix(of: self)
    }

    /// Throws the error that says why the path is unusable: it did not parse, or it is longer than
    /// ``StoreLimits/maxPathSegments`` (`bad_path`, naming only its start).
    func validate() throws(StoreError) {
        if let parseError { throw .badPath(parseError) }
        guard segments.count <= StoreLimits.maxPathSegments else {
            throw StoreError(
                code: .badPath,
                message: "the path \"\(abbreviated)\" has \(segments.count) segments; a store path has at most "
                    + "\(StoreLimits.maxPathSegments)",
                keyPath: nil)
        }
    }
}

extension StoreKeyPath: ExpressibleByStringLiteral {
    /// A literal is taken as a `StaticString`, whose bytes stay at one address for the life of the program: the
    /// thread's cache of parsed paths finds it by that address, without hashing its text (see KeyPathCache).
    public typealias StringLiteralType = StaticString
    public typealias ExtendedGraphemeClusterLiteralType = StaticString
    public typealias UnicodeScalarLiteralType = StaticString

    /// Parses a literal; an invalid literal keeps its error (see the type's documentation) instead of trapping.
    public init(stringLiteral value: StaticString) {
        do {
            self.init(segments: try KeyPathCache.segments(ofLiteral: value))
        } catch {
            self.init(invalid: error)
        }
    }

    /// Parses `value` as a literal would be: an invalid text keeps its error instead of trapping.
    public init(stringLiteral value: String) {
        do {
            try self.init(parsing: value)
        } catch {
            self.init(invalid: error)
        }
    }
}

extension StoreKeyPath: CustomStringConvertible {
    /// The canonical form (docs/store.md): names where the key allows, quoted keys otherwise.
    /// An unparsable literal prints the text it was given.
    public var description: String {
        if let parseError { return parseError.path }
        return KeyPathPrinter.canonical(segments)
    }
}

extension StoreKeyPath: Comparable {
    /// Orders by segments (keys before indexes, then by key or index), so a sorted list reads like a tree.
    public static func < (lhs: StoreKeyPath, rhs: StoreKeyPath) -> Bool {
        for (a, b) in zip(lhs.segments, rhs.segments) where a != b {
            switch (a, b) {
            case let (.key(x), .key(y)): return x < y
            case let (.index(x), .index(y)): return x < y
            case (.key, .index): return true
            case (.index, .key): return false
            }
        }
        return lhs.segments.count < rhs.segments.count
    }
}

/// The box of an unparsable literal's error (see ``StoreKeyPath/parseError``).
private final class InvalidPath: Sendable {
    let error: KeyPathParseError

    init(error: KeyPathParseError) { self.error = error }
}

/// Why a key path did not parse, with the 1-based column (in Unicode scalars) where parsing failed.
public struct KeyPathParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text that was parsed.
    public let path: String
    /// 1-based column in Unicode scalars; one past the end when the path ended too early.
    public let column: Int
    /// What was wrong there, and what would be right.
    public let reason: String

    public var description: String {
        "invalid key path \"\(path)\" at column \(column): \(reason)"
    }
}
