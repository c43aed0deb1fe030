import Foundation
public import KeyscopeCore

/// The differences between two instances' states (`GET /api/fleet/diff?a=ID&b=ID`, docs/fleet.md): for each store
/// both have, every smallest key path whose values differ (docs/store.md equality: `3 != 3.0`), with each side's value
/// or nothing where it has none; and the stores only one side has.
///
/// Each instance keeps its files in its own folder, so the same file store has another id on each side
/// (`app/file:/srv/a/live-constants.json`, `app/file:/srv/b/live-constants.json`): such a pair is compared as one
/// store, listed under A's id, with B's in ``pairs``, when it is unambiguous (one file store of that scope and file
/// name only in A, one only in B).
public struct FleetDiff: Sendable, Hashable {
    public struct Difference: Sendable, Hashable {
        public var path: StoreKeyPath
        /// `nil`: the side has nothing at the path.
        public var a: StoreValue?
        public var b: StoreValue?
    }

    public let a: String
    public let b: String
    /// Store id → its differences, in path order; only stores with differences.
    public private(set) var stores: [StoreID: [Difference]] = [:]
    public private(set) var onlyInA: [StoreID] = []
    public private(set) var onlyInB: [StoreID] = []
    /// A's id → B's id of the file stores compared as one (see the type's notes).
    public private(set) var pairs: [StoreID: StoreID] = [:]
    /// Whether differences were left out past ``limit``.
    public private(set) var truncated = false

    /// The most differences listed (a diff of two unrelated states is not sent whole).
    public static let limit = 10_000

    public init(a: String, rootsA: [StoreID: StoreValue], b: String, rootsB: [StoreID: StoreValue]) {
        self.a = a
        self.b = b
        let byName = { (id: StoreID) in id.description }
        onlyInA = rootsA.keys.filter { rootsB[$0] == nil }.sorted(by: { byName($0) < byName($1) })
        onlyInB = rootsB.keys.filter { rootsA[$0] == nil }.sorted(by: { byName($0) < byName($1) })
        pairs = Self.movedFiles(onlyInA, onlyInB)
        onlyInA.removeAll { pairs[$0] != nil }
        let paired = Set(pairs.values)
        onlyInB.removeAll { paired.contains($0) }
        var compared = rootsA.keys.filter { rootsB[$0] != nil }.map { ($0, $0) } + pairs.map { ($0.key, $0.value) }
        compared.sort { byName($0.0) < byName($1.0) }
        var count = 0
        for (idA, idB) in compared {
            guard let left = rootsA[idA], let right = rootsB[idB] else { continue }
            var found: [Difference] = []
            Self.compare(left, right, at: .root, into: &found, budget: Self.limit - count)
            if found.count >= Self.limit - count { truncated = true }
            count += found.count
            if !found.isEmpty { stores[idA] = found }
        }
    }

    /// The file stores only in A and only in B that are one store in two folders: the same scope and file name,
    /// and no other such store on either side.
    static func movedFiles(_ onlyInA: [StoreID], _ onlyInB: [StoreID]) -> [StoreID: StoreID] {
        func key(_ id: StoreID) -> String? {
            guard case .file(let url) = id.storage else { return nil }
            return "\(id.scope)\u{0}\(url.lastPathComponent)"
        }
        let left = Dictionary(grouping: onlyInA.filter { key($0) != nil }, by: { key($0)! })
        let right = Dictionary(grouping: onlyInB.filter { key($0) != nil }, by: { key($0)! })
        var pairs: [StoreID: StoreID] = [:]
        for (name, ids) in left where ids.count == 1 {
            if let other = right[name], other.count == 1 { pairs[ids[0]] = other[0] }
        }
        return pairs
    }

    /// The JSON of the endpoint: `{"a", "b", "stores": {id: [{"path", "a"?, "b"?}]}, "onlyIn": {"a": […], "b": […]},
    /// "pairs": {A's id: B's id}, "truncated": bool}`.
    public var jsonObject: StoreValue {
        var byStore: [String: StoreValue] = [:]
        for (id, differences) in stores {
            byStore[id.description] = .array(
                differences.map { difference in
                    var object: [String: StoreValue] = ["path": .string(difference.path.description)]
                    if let value = difference.a { object["a"] = value }
                    if let value = difference.b { object["b"] = value }
                    return .object(object)
                })
        }
        return .object([
            "a": .string(a), "b": .string(b), "stores": .object(byStore),
            "onlyIn": .object([
                "a": .array(onlyInA.map { .string($0.description) }),
                "b": .array(onlyInB.map { .string($0.description) }),
            ]),
            "pairs": .object(
                Dictionary(
                    uniqueKeysWithValues: pairs.map { ($0.key.description, StoreValue.string($0.value.description)) })),
            "truncated": .bool(truncated),
        ])
    }

    private static func compare(
        _ left: StoreValue?, _ right: StoreValue?, at path: StoreKeyPath, into found: inout [Difference], budget: Int
    ) {
        guard found.count < budget, left != right else { return }
        switch (left, right) {
        case (.object(let l)?, .object(let r)?):
            for key in Set(l.keys).union(r.keys).sorted() {
                compare(l[key], r[key], at: path.appending(key: key), into: &found, budget: budget)
            }
        case (.array(let l)?, .array(let r)?):
            for index in 0..<max(l.count, r.count) {
                let leftItem: StoreValue? = index < l.count ? l[index] : .none
                let rightItem: StoreValue? = index < r.count ? r[index] : .none
                compare(leftItem, rightItem, at: path.appending(index: index), into: &found, budget: budget)
            }
        default:
            found.append(Difference(path: path, a: left, b: right))
        }
    }
}

extension FleetView {
    /// The diff of two instances' current states; `nil` when either is unknown or not read yet.
    public func diff(_ a: String, _ b: String) -> FleetDiff? {
        guard let left = storeRoots(of: a), let right = storeRoots(of: b) else { return nil }
        return FleetDiff(a: a, rootsA: left.roots, b: b, rootsB: right.roots)
    }
}
