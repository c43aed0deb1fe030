public import KeyscopeCore

/// The differences between two instances' states (`GET /api/fleet/diff?a=ID&b=ID`, docs/fleet.md): for each store
/// both have, every smallest key path whose values differ (docs/store.md equality: `3 != 3.0`), with each side's value
/// or nothing where it has none; and the stores only one side has.
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
    /// Whether differences were left out past ``limit``.
    public private(set) var truncated = false

    /// The most differences listed (a diff of two unrelated states is not sent whole).
    public static let limit = 10_000

    public init(a: String, rootsA: [StoreID: StoreValue], b: String, rootsB: [StoreID: StoreValue]) {
        self.a = a
        self.b = b
        var count = 0
        for id in Set(rootsA.keys).union(rootsB.keys).sorted(by: { $0.description < $1.description }) {
            switch (rootsA[id], rootsB[id]) {
            case (_?, nil): onlyInA.append(id)
            case (nil, _?): onlyInB.append(id)
            case (let left?, let right?):
                var found: [Difference] = []
                Self.compare(left, right, at: .root, into: &found, budget: Self.limit - count)
                if found.count >= Self.limit - count { truncated = true }
                count += found.count
                if !found.isEmpty { stores[id] = found }
            case (nil, nil): break
            }
        }
    }

    /// The JSON of the endpoint: `{"a", "b", "stores": {id: [{"path", "a"?, "b"?}]}, "onlyIn": {"a": […], "b": […]},
    /// "truncated": bool}`.
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
