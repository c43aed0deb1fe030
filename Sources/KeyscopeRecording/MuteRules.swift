public import KeyscopeCore

/// What a recording leaves out (docs/recording.md "Muting"): values at key path patterns, replaced by the string
/// ``placeholder`` in every store, and whole stores.
///
/// ```swift
/// let rules = try MuteRules(patterns: ["user.payment", "sessions[*].token"], stores: [StoreID("app/backend:x")!])
/// rules.mask(root: ["user": ["name": "Ada", "payment": ["card": "4242"]]])
/// // {"user": {"name": "Ada", "payment": "•••• (muted)"}}
/// rules.mask(change)     // the change as the masked state sees it, or nil when nothing of it is left
/// ```
/// Masking keeps a recording replayable: for every state `s` and every change `c` that applies to it,
/// `mask(root: s)` with `mask(c)` applied equals `mask(root: s.applying(c))` (a change masked to nothing leaves the
/// masked state as it is). So patches at or above a muted path keep their place with masked `old` and `new`, patches
/// strictly below one are dropped (the placeholder does not change), and a change left without patches is dropped.
public struct MuteRules: Sendable, Hashable {
    /// What a muted value becomes.
    public static let placeholder: StoreValue = .string("•••• (muted)")

    /// No muting at all.
    public static let none = MuteRules(patterns: [MutePattern](), stores: [])

    /// The key path patterns, applied to every store, in the order given.
    public let patterns: [MutePattern]
    /// The stores left out of the recording entirely, in the order given (without repeats).
    public let stores: [StoreID]
    private let storeSet: Set<StoreID>

    public init(patterns: [MutePattern], stores: [StoreID]) {
        var unique: [MutePattern] = []
        for pattern in patterns where !unique.contains(pattern) { unique.append(pattern) }
        self.patterns = unique
        var seen: Set<StoreID> = []
        self.stores = stores.filter { seen.insert($0).inserted }
        self.storeSet = seen
    }

    /// Rules from pattern texts (see ``MutePattern/init(parsing:)``) and muted store ids.
    ///
    /// - Throws: ``RecordingError`` with ``RecordingError/Code/badMutePattern`` for the first pattern that cannot be
    ///   used.
    public init(patterns: [String], stores: [StoreID] = []) throws(RecordingError) {
        var parsed: [MutePattern] = []
        for text in patterns { parsed.append(try MutePattern(parsing: text)) }
        self.init(patterns: parsed, stores: stores)
    }

    /// Whether nothing is muted.
    public var isEmpty: Bool { patterns.isEmpty && stores.isEmpty }

    /// Whether the store `id` is left out entirely.
    public func mutes(store id: StoreID) -> Bool { storeSet.contains(id) }

    /// A store's root with every value at a muted path replaced by ``placeholder`` (the outermost one, when muted
    /// paths nest). Roots of muted stores are masked the same way; leaving them out is the caller's business.
    public func mask(root: StoreValue) -> StoreValue {
        guard !patterns.isEmpty else { return root }
        return mask(root, alive: Array(patterns.indices), depth: 0)
    }

    // MARK: The matching machinery

    /// The patterns still matching a path of `depth` segments: those whose first `depth` segments match it. A
    /// pattern of exactly `depth` segments among them mutes the value there.
    typealias Alive = [Int]

    /// Whether one of `alive` ends at `depth`: the value there is muted.
    func isMuted(_ alive: Alive, depth: Int) -> Bool {
        alive.contains { patterns[$0].segments.count == depth }
    }

    /// The patterns of `alive` (at `depth`) that also match `segment`, the path's next step.
    func step(_ alive: Alive, _ segment: StoreKeyPath.Segment, depth: Int) -> Alive {
        alive.filter { index in
            let pattern = patterns[index].segments
            return pattern.count > depth && pattern[depth].matches(segment)
        }
    }

    /// `value`, found at a path of `depth` segments that `alive` still match, with its muted parts replaced.
    func mask(_ value: StoreValue, alive: Alive, depth: Int) -> StoreValue {
        if alive.isEmpty { return value }
        if isMuted(alive, depth: depth) { return Self.placeholder }
        switch value {
        case .object(var members):
            for (key, member) in members {
                let next = step(alive, .key(key), depth: depth)
                if !next.isEmpty { members[key] = mask(member, alive: next, depth: depth + 1) }
            }
            return .object(members)
        case .array(var elements):
            for index in elements.indices {
                let next = step(alive, .index(index), depth: depth)
                if !next.isEmpty { elements[index] = mask(elements[index], alive: next, depth: depth + 1) }
            }
            return .array(elements)
        default:
            return value
        }
    }
}
