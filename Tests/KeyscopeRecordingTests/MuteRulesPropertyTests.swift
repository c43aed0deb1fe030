import Foundation
import KeyscopeCore
import KeyscopeRecording
import KeyscopeTesting
import Testing

/// The property that keeps muted recordings replayable: for random states `s`, random changes `c` made by a real
/// store and random rules, `mask(root: s)` with `mask(c)` applied is `mask(root: s after c)`.
@Suite struct MuteRulesPropertyTests {
    @Test(arguments: 0..<8)
    func maskedChangesApplyToMaskedStates(batch: Int) throws {
        // How many cases were really tried, and in how many muting changed the change or dropped it.
        var applied = 0
        var masking = 0
        for run in 0..<250 {
            let seed = UInt64(batch * 1000 + run)
            var generator = MuteValueMaker(random: SplitMix64(seed: seed))
            let state = generator.object(depth: 3)
            let rules = try generator.rules()
            let store = KeyValueStore(id: StoreID("app/memory")!, root: state.objectValue!)
            // Up to four operations, each made for the state the ones before leave (tried on a scratch store).
            let scratch = KeyValueStore(id: store.id, root: state.objectValue!)
            var operations: [StoreOperation] = []
            for _ in 0...generator.int(3) {
                let operation = generator.operation(on: scratch.snapshot())
                if (try? scratch.apply([operation], transactionID: nil)) != nil { operations.append(operation) }
            }
            guard !operations.isEmpty else { continue }
            let change: StoreChange?
            do {
                change = try store.apply(operations, transactionID: operations.count > 1 ? UUID() : nil)
            } catch {
                continue  // an operation the state refuses (an index past the end, a name into an array)
            }
            guard let change else { continue }
            let after = store.snapshot()
            applied += 1
            if rules.mask(change) != change { masking += 1 }
            var masked = rules.mask(root: state)
            if let maskedChange = rules.mask(change) {
                do {
                    try masked.apply(change: maskedChange)
                } catch {
                    let context = "rules \(rules.patterns)\nstate \(state)\nchange \(change.patches)"
                    Issue.record(
                        "seed \(seed): the masked change does not apply: \(error)\n\(context)\nmasked \(maskedChange.patches)"
                    )
                    return
                }
            }
            #expect(
                masked == rules.mask(root: after),
                "seed \(seed): rules \(rules.patterns)\nstate \(state)\nchange \(change.patches)")
        }
        #expect(applied >= 150, "only \(applied) of 250 random changes applied")
        #expect(masking >= 20, "muting touched only \(masking) of \(applied) changes")
    }
}

/// Random values over a small key vocabulary (so that patterns and paths meet often), paths into a state, and
/// operations and rules on them.
struct MuteValueMaker {
    var random: SplitMix64
    static let keys = ["a", "b", "c", "card"]

    mutating func int(_ upper: Int) -> Int { Int.random(in: 0...upper, using: &random) }

    mutating func key() -> String { Self.keys[int(Self.keys.count - 1)] }

    mutating func value(depth: Int) -> StoreValue {
        switch int(depth > 0 ? 7 : 4) {
        case 0: return .integer(Int64(int(9)))
        case 1: return .string(["x", "y", "•••• (muted)"][int(2)])
        case 2: return .bool(int(1) == 0)
        case 3: return .null
        case 4: return .number(Double(int(9)) / 2)
        case 5, 6: return object(depth: depth - 1)
        default: return .array((0..<int(3)).map { _ in value(depth: depth - 1) })
        }
    }

    mutating func object(depth: Int) -> StoreValue {
        var members: [String: StoreValue] = [:]
        for _ in 0..<int(3) { members[key()] = value(depth: depth) }
        return .object(members)
    }

    /// Every path in `value` (the root included), so that operations land on what is there.
    func paths(in value: StoreValue, at path: StoreKeyPath = .root) -> [StoreKeyPath] {
        var found = [path]
        switch value {
        case .object(let members):
            for (key, member) in members { found += paths(in: member, at: path.appending(key: key)) }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                found += paths(in: element, at: path.appending(index: index))
            }
        default:
            break
        }
        return found
    }

    mutating func operation(on state: StoreValue) -> StoreOperation {
        let existing = paths(in: state)
        var path = existing[int(existing.count - 1)]
        switch int(5) {
        case 0:
            if int(1) == 0 { path = path.appending(key: key()) }
            return .set(path, path.isRoot ? object(depth: 2) : value(depth: 2))
        case 1:
            // An index into an array (appending included), or anything else, which the store may refuse.
            if case .array(let elements)? = state[path] {
                return .insert(path.appending(index: int(elements.count)), value(depth: 2))
            }
            return .insert(path.appending(index: 0), value(depth: 1))
        case 2:
            return path.isRoot ? .remove(.init(segments: [.key(key())])) : .remove(path)
        case 3:
            var members: [String: StoreValue] = [:]
            for _ in 0...int(2) { members[key()] = value(depth: 2) }
            return .merge(int(2) == 0 ? path.appending(key: key()) : path, members)
        default:
            if case .array(let elements)? = state[path], !elements.isEmpty {
                return .remove(path.appending(index: int(elements.count - 1)))
            }
            return .set(path.appending(key: key()), value(depth: 1))
        }
    }

    mutating func rules() throws -> MuteRules {
        var patterns: [String] = []
        for _ in 0...int(2) {
            var segments: [String] = []
            for _ in 0...int(2) { segments.append(int(3) == 0 ? "*" : key()) }
            patterns.append(segments.joined(separator: "."))
        }
        return try MuteRules(patterns: patterns)
    }
}
