import Foundation
import KeyscopeCore
import KeyscopeTesting
import Testing

/// Every patch can be undone from its own fields (docs/store.md "Patches").
@Suite struct InversionTests {
    @Test(arguments: [
        StoreOperation.set("cart.total", 100),
        .set("cart.note", "hi"),
        .set("new.deep.key", true),
        .set("items[2]", "appended"),
        .set("items[0]", "replaced"),
        .set(.root, ["fresh": 1]),
        .insert("items[1]", ["title": "y"]),
        .insert("items[0]", 0),
        .remove("items[1]"),
        .remove("cart"),
        .merge("cart", ["total": 5, "coupon": "SAVE"]),
        .merge("user.profile", ["name": "A"]),
        .merge(.root, ["cart": 1, "z": 2]),
    ])
    func applyingAChangeAndItsInverseRestoresTheState(operation: StoreOperation) throws {
        let initial: [String: StoreValue] = ["cart": ["total": 90], "items": ["a", "b"]]
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: initial)
        let change = try #require(try store.apply(operation))
        var root = store.snapshot()
        try root.apply(change: change.inverted())
        #expect(root == .object(initial))
    }

    @Test func randomOperationSequencesInvertExactly() throws {
        var rng = SplitMix64(seed: 0x5EED)
        for _ in 0..<300 {
            let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: ["a": ["b": [1, 2]], "c": 3])
            var changes: [(before: StoreValue, change: StoreChange)] = []
            for _ in 0..<8 {
                let before = store.snapshot()
                if let change = try? store.apply(RandomOperations.next(&rng, in: before)) {
                    changes.append((before, change))
                }
            }
            var root = store.snapshot()
            for (before, change) in changes.reversed() {
                try root.apply(change: change.inverted())
                #expect(root == before)
            }
        }
    }

    @Test func revertingAStaleChangeConflictsAndChangesNothing() throws {
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: ["x": 1])
        let change = try #require(try store.apply(.set("x", 2)))
        try store.apply(.set("x", 3))
        var root = store.snapshot()
        let error = try #require(throws: StoreError.self) { try root.apply(change: change.inverted()) }
        #expect(error.code == .conflict)
        #expect(root == ["x": 3])
    }

    @Test func presenceCountsInConflicts() throws {
        var root: StoreValue = ["x": 1]
        let patch = StorePatch(op: .set, keyPath: "y", newValue: 1)  // expects nothing at y
        try root.apply(patch: patch)
        #expect(throws: StoreError.self) { try root.apply(patch: patch) }
    }

    @Test func mergeInverseSetsBackOldKeysAndRemovesNewOnes() {
        let patch = StorePatch(op: .merge, keyPath: "user", oldValue: ["name": "A"], newValue: ["name": "B", "age": 3])
        #expect(
            patch.inverted() == [
                StorePatch(op: .remove, keyPath: "user.age", oldValue: 3),
                StorePatch(op: .set, keyPath: "user.name", oldValue: "B", newValue: "A"),
            ])
    }
}

/// Random but mostly valid operations against a given state (paths into what exists, plus some new ones).
enum RandomOperations {
    static func next(_ rng: inout SplitMix64, in root: StoreValue) -> StoreOperation {
        let paths = existingPaths(root)
        let path = paths.randomElement(using: &rng) ?? .root
        let value: StoreValue = [1, "s", ["k": 2], [1, 2], .null, 2.5].randomElement(using: &rng)!
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return .set(path.isRoot ? "fresh" : path, value)
        case 1: return .set(path.appending(key: "n\(Int.random(in: 0..<3, using: &rng))"), value)
        case 2:
            if case .array(let a)? = root[path] {
                return .insert(path.appending(index: Int.random(in: 0...a.count, using: &rng)), value)
            }
            return .remove(path)
        case 3: return .remove(path)
        case 4: return .merge(path, ["m": value, "n0": 1])
        default:
            if case .array(let a)? = root[path] { return .set(path.appending(index: a.count), value) }
            return .set(path.appending(key: "z"), value)
        }
    }

    static func existingPaths(_ value: StoreValue, _ prefix: StoreKeyPath = .root) -> [StoreKeyPath] {
        var result = [prefix]
        switch value {
        case .object(let o): for (k, v) in o { result += existingPaths(v, prefix.appending(key: k)) }
        case .array(let a): for (i, v) in a.enumerated() { result += existingPaths(v, prefix.appending(index: i)) }
        default: break
        }
        return result
    }
}
