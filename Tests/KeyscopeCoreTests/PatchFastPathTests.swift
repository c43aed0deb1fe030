import KeyscopeGenerators
import PropertyBased
import Testing

@testable import KeyscopeCore

/// `StoreValue.apply(patch:)`'s one-walk fast path against its general steps: when the fast path takes a patch, the
/// state is the one the general steps leave; when it does not, nothing has changed.
@Suite("recorded patches: fast path vs general steps")
struct PatchFastPathTests {
    static let state: StoreValue = [
        "cart": ["total": 90, "items": [["sku": "A", "qty": 1], ["sku": "B", "qty": 2]], "note": nil],
        "session": ["views": 3, "route": "/"],
        "tags": ["a", "b"],
    ]

    /// The outcome both ways, checked against each other.
    private static func check(
        _ patch: StorePatch, on state: StoreValue, sourceLocation: SourceLocation = #_sourceLocation
    )
        -> Bool
    {
        var general = state
        let reference = Result { () throws(StoreError) in try general.applyGenerally(patch) }
        var fast = state
        let took = fast.applyIfFitting(patch)
        if took {
            #expect(
                reference.isSuccess, "fast path applied \(patch), general steps: \(reference)",
                sourceLocation: sourceLocation)
            #expect(fast == general, "\(patch)", sourceLocation: sourceLocation)
        } else {
            #expect(fast == state, "the fast path changed the state for \(patch)", sourceLocation: sourceLocation)
        }
        var viaApply = state
        let outcome = Result { () throws(StoreError) in try viaApply.apply(patch: patch) }
        #expect(outcome.isSuccess == reference.isSuccess, sourceLocation: sourceLocation)
        #expect(viaApply == general, sourceLocation: sourceLocation)
        if case .failure(let error) = outcome, case .failure(let expected) = reference {
            #expect(error == expected, sourceLocation: sourceLocation)
        }
        return took
    }

    static let fitting: [StorePatch] = [
        StorePatch(op: .set, keyPath: "cart.total", oldValue: 90, newValue: 100),
        StorePatch(op: .set, keyPath: "cart.coupon", newValue: "SAVE"),
        StorePatch(op: .set, keyPath: "cart.note", oldValue: .null, newValue: "hi"),
        StorePatch(op: .set, keyPath: "tags[2]", newValue: "c"),
        StorePatch(op: .set, keyPath: "cart.items[1].qty", oldValue: 2, newValue: 3),
        StorePatch(op: .insert, keyPath: "cart.items[0]", newValue: ["sku": "C", "qty": 1]),
        StorePatch(op: .insert, keyPath: "tags[2]", newValue: "z"),
        StorePatch(op: .remove, keyPath: "cart.items[1]", oldValue: ["sku": "B", "qty": 2]),
        StorePatch(op: .remove, keyPath: "session.route", oldValue: "/"),
        StorePatch(op: .merge, keyPath: "session", oldValue: ["views": 3], newValue: ["views": 4, "user": "ann"]),
        StorePatch(op: .merge, keyPath: .root, oldValue: ["tags": ["a", "b"]], newValue: ["tags": [], "x": 1]),
    ]

    @Test("patches that fit take the fast path, to the general steps' state", arguments: fitting)
    func fittingPatches(_ patch: StorePatch) {
        #expect(Self.check(patch, on: Self.state))
    }

    static let notFitting: [StorePatch] = [
        StorePatch(op: .set, keyPath: "cart.total", oldValue: 91, newValue: 100),
        StorePatch(op: .set, keyPath: "cart.total", newValue: 100),
        StorePatch(op: .set, keyPath: "cart.coupon", oldValue: "X", newValue: "SAVE"),
        StorePatch(op: .set, keyPath: "cart.total", oldValue: .number(90), newValue: 100),
        StorePatch(op: .set, keyPath: "tags[3]", newValue: "c"),
        StorePatch(op: .set, keyPath: "nothing.here", newValue: 1),
        StorePatch(op: .set, keyPath: "cart.total.x", newValue: 1),
        StorePatch(op: .set, keyPath: .root, oldValue: state, newValue: ["a": 1]),
        StorePatch(op: .insert, keyPath: "tags[3]", newValue: "z"),
        StorePatch(op: .insert, keyPath: "cart[0]", newValue: "z"),
        StorePatch(op: .remove, keyPath: "cart.items[2]", oldValue: ["sku": "B", "qty": 2]),
        StorePatch(op: .remove, keyPath: "session.route", oldValue: "/cart"),
        StorePatch(op: .remove, keyPath: "session.user", oldValue: "ann"),
        StorePatch(op: .merge, keyPath: "session", oldValue: ["views": 2], newValue: ["views": 4]),
        StorePatch(op: .merge, keyPath: "session", oldValue: [:], newValue: ["views": 4]),
        StorePatch(op: .merge, keyPath: "tags", oldValue: [:], newValue: ["a": 1]),
        StorePatch(op: .merge, keyPath: "cart.absent", oldValue: [:], newValue: ["a": 1]),
        StorePatch(op: .set, keyPath: "cart.deep", newValue: nested(StoreLimits.maxDepth)),
        StorePatch(op: .set, keyPath: "a[b", newValue: 1),
    ]

    @Test("patches that do not fit leave the state alone and get the general steps' error", arguments: notFitting)
    func patchesThatDoNotFit(_ patch: StorePatch) {
        #expect(!Self.check(patch, on: Self.state))
    }

    static func nested(_ levels: Int) -> StoreValue {
        (0..<levels).reduce(StoreValue.integer(1)) { inner, _ in .array([inner]) }
    }

    @Test("random patches on random states agree, and the depth measure agrees with depth(limit:)")
    func randomPatches() async {
        await propertyCheck(count: 3000, input: PatchOnState.generator) { sample in
            _ = Self.check(sample.patch, on: sample.state)
            let value = sample.patch.newValue ?? .null
            for room in 0...4 { #expect(value.nests(within: room) == (value.depth(limit: room) <= room)) }
        }
    }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}

/// A random state and a patch aimed at it: at a path that is there (its `old` right or wrong) or not.
struct PatchOnState: Sendable, CustomTestStringConvertible {
    let state: StoreValue
    let patch: StorePatch
    var testDescription: String { "\(patch) on \(state.jsonText(sortedKeys: true))" }

    static var generator: Generator<PatchOnState, Shrink.None<PatchOnState>> {
        Generator { rng in
            var state = StoreGen.randomValue(depth: 3, width: 3, using: &rng)
            if state.objectValue == nil { state = ["x": state] }
            var path = StoreKeyPath.root
            var current = state
            // Walk down a few existing steps, sometimes one past what is there.
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                switch current {
                case .object(let members) where !members.isEmpty && StoreGen.chance(0.8, &rng):
                    let key = StoreGen.pick(Array(members.keys), &rng)
                    path = path.appending(key: key)
                    current = members[key]!
                case .array(let elements) where StoreGen.chance(0.8, &rng):
                    let index = Int.random(in: 0...elements.count + 1, using: &rng)
                    path = path.appending(index: index)
                    current = index < elements.count ? elements[index] : .null
                default:
                    path = path.appending(key: StoreGen.randomKey(using: &rng))
                }
            }
            if StoreGen.chance(0.1, &rng) { path = StoreGen.randomKeyPath(using: &rng) }
            let there = state[path]
            let op = StoreGen.pick(StorePatch.Operation.allCases, &rng)
            let random = StoreGen.randomValue(depth: 2, width: 3, using: &rng)
            let old: StoreValue? = StoreGen.chance(0.7, &rng) ? there : (StoreGen.chance(0.5, &rng) ? random : nil)
            var new: StoreValue? = StoreGen.randomValue(depth: 2, width: 3, using: &rng)
            if op == .merge {
                new = ["a": random, "b": 1]
                let target = there?.objectValue ?? [:]
                let oldMembers = target.filter { _ in StoreGen.chance(0.8, &rng) }
                return PatchOnState(
                    state: state,
                    patch: StorePatch(op: op, keyPath: path, oldValue: .object(oldMembers), newValue: new))
            }
            if op == .remove { new = nil }
            return PatchOnState(
                state: state,
                patch: StorePatch(op: op, keyPath: path, oldValue: op == .insert ? nil : old, newValue: new))
        }
    }
}
