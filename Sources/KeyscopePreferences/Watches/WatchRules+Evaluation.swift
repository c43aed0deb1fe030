import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector

extension WatchRules {
    /// Takes the watched stores' state from `snapshot` and evaluates every rule on it.
    func apply(_ snapshot: HubSnapshot, to engine: inout Engine, found: inout [WatchViolation]) {
        let watched = Set(engine.rules.map(\.rule.store))
        engine.roots = [:]
        for id in watched {
            if let store = snapshot.store(id) { engine.roots[id] = store.root }
        }
        let time = Date()
        for index in engine.rules.indices {
            let rule = engine.rules[index].rule
            evaluate(index, value: engine.roots[rule.store]?[rule.path], seq: snapshot.seq, time: time, in: &engine)
                .map { found.append($0) }
        }
    }

    /// Applies the entries of the watched stores to their copies and evaluates the rules each one can affect.
    /// An entry that does not apply (the copy went wrong) stops here and asks for a snapshot.
    ///
    /// A store event (`registered`, `reset`, `removed`) is evaluated after the store's later events of the same
    /// batch, so that a `removed` followed by a `registered` (the hub stopped and started) is not taken for the
    /// paths going missing.
    func apply(_ entries: [HubLogEntry], to engine: inout Engine, found: inout [WatchViolation]) {
        let watched = Set(engine.rules.map(\.rule.store))
        var pending: [StoreID: (seq: Int, time: Date)] = [:]
        defer {
            for (id, at) in pending.sorted(by: { $0.value.seq < $1.value.seq }) {
                evaluate(store: id, at: at, in: &engine, found: &found) { _ in true }
            }
        }
        for entry in entries where watched.contains(entry.storeID) {
            let id = entry.storeID
            switch entry.event {
            case .change(let change):
                if let at = pending.removeValue(forKey: id) {
                    evaluate(store: id, at: at, in: &engine, found: &found) { _ in true }
                }
                // Taken out of the dictionary so that the patches mutate the only reference (no copy of the tree).
                guard var root = engine.roots.removeValue(forKey: id) else {
                    engine.needsResync = true
                    return
                }
                do {
                    for patch in change.patches { try root.apply(patch: patch) }
                } catch {
                    engine.needsResync = true
                    return
                }
                engine.roots[id] = root
                evaluate(store: id, at: (entry.seq, entry.time.date), in: &engine, found: &found) { path in
                    change.patches.contains { Self.patch($0, canAffect: path) }
                }
            case .registered(_, let root):
                engine.roots[id] = root
                pending[id] = (entry.seq, entry.time.date)
            case .reset:
                engine.roots[id] = .emptyObject
                pending[id] = (entry.seq, entry.time.date)
            case .removed:
                engine.roots[id] = nil
                pending[id] = (entry.seq, entry.time.date)
            }
        }
    }

    /// Evaluates the rules of store `id` whose path `affects` says may have changed.
    private func evaluate(
        store id: StoreID, at: (seq: Int, time: Date), in engine: inout Engine, found: inout [WatchViolation],
        affects: (StoreKeyPath) -> Bool
    ) {
        for index in engine.rules.indices where engine.rules[index].rule.store == id {
            let path = engine.rules[index].rule.path
            guard affects(path) else { continue }
            evaluate(index, value: engine.roots[id]?[path], seq: at.seq, time: at.time, in: &engine)
                .map { found.append($0) }
        }
    }

    /// Whether `patch` can change what is at `path`: the same path, an ancestor or a descendant, or (for an
    /// element insert or remove) anything in the array whose later elements it shifts.
    static func patch(_ patch: StorePatch, canAffect path: StoreKeyPath) -> Bool {
        var changed = patch.keyPath
        if patch.op == .insert || patch.op == .remove, case .index? = changed.last { changed = changed.parent }
        return changed.overlaps(path)
    }

    /// Records the rule's value when it changed, and a violation when that value breaks the rule.
    private func evaluate(_ index: Int, value: StoreValue?, seq: Int, time: Date, in engine: inout Engine)
        -> WatchViolation?
    {
        var slot = engine.rules[index]
        defer { engine.rules[index] = slot }
        guard !slot.evaluated || slot.current != value else { return nil }
        slot.evaluated = true
        slot.current = value
        slot.seq = seq
        slot.ok = slot.rule.isKept(by: value)
        guard !slot.ok else { return nil }
        slot.violations += 1
        let violation = WatchViolation(
            rule: slot.rule.id, store: slot.rule.store, path: slot.rule.path, seq: seq, time: time, value: value,
            message: slot.rule.message(for: value))
        engine.violations.insert(violation, at: 0)
        if engine.violations.count > maxViolations {
            engine.violations.removeLast(engine.violations.count - maxViolations)
        }
        return violation
    }
}
