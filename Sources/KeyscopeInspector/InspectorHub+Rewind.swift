import KeyscopeCore
public import KeyscopeProtocol
import Synchronization

extension InspectorHub {
    /// Puts the live stores back as they were at seq `target`: every change logged after it is undone, newest first,
    /// with the inverse patches of each (docs/recording.md "Rewind"). Returns what was done.
    ///
    /// ```swift
    /// let before = hub.lastSeq                  // say 1200
    /// store.set("cart.total", 0)                // … the bug happens …
    /// let result = try hub.rewind(toSeq: before)
    /// result.seq       // 1307: the seq of the last change the rewind made (nil when nothing changed)
    /// result.stores    // [app/memory]: the stores rewound, each with one transaction
    /// result.skipped   // stores removed since 1200: they cannot come back
    /// ```
    ///
    /// Each store is rewound with one transaction (one `txn`), under its lock: its changes after `target` are read
    /// from the log inside that lock, where the log holds every change the store made (the observer appends under
    /// the same lock), so a write that lands before the store's turn is undone with the rest. The inverse is first
    /// checked against the current state, `old` values and presence included, then applied as operations (as
    /// ``revert(seq:)`` does it). Stores are rewound one after the other in id order; when one refuses (a path no
    /// longer holds what the log says, a commit gate refuses, a reset came in), the stores already rewound are put
    /// forward again (the inverse of their rewinding change, checked the same way) and the rewind fails.
    ///
    /// - Stores registered after `target` stay; their changes since they registered are undone.
    /// - Stores removed after `target` cannot come back: they are listed in ``RewindResult/skipped``. One that was
    ///   registered again is also rewound to its registration.
    /// - Errors, in this order: `read_only`; `bad_request` when `target` is not within `firstSeq - 1 ... lastSeq` of
    ///   the log (older changes are no longer known); `conflict` when a store present now was reset after `target`
    ///   (its data then is gone), or a store refused (see above). Nothing has changed when one is thrown, except a
    ///   store that could not be put forward again, which the message names.
    ///
    /// Do not call it from inside a store's observer or transaction.
    @discardableResult
    public func rewind(toSeq target: Int) throws(HubError) -> RewindResult {
        try refuseIfReadOnly()
        settle()  // so that the log's range is its bounded one
        let collected = state.withLock { state -> (entries: [HubLogEntry], through: Int)? in
            guard target >= state.log.firstSeq - 1, target <= state.log.lastSeq else { return nil }
            // Entries after the target stay in the log until the rewind is done (the stores' turns read them).
            state.pins.append(target)
            return (state.log.entries(from: target + 1, limit: .max), state.log.lastSeq)
        }
        guard let collected else {
            let range = state.withLock { "\($0.log.firstSeq - 1)...\($0.log.lastSeq)" }
            throw .badRequest(
                "seq \(target) is not within the inspector's log: it can rewind to \(range); older changes are no "
                    + "longer known")
        }
        defer { state.withLock { _ = $0.pins.remove(at: $0.pins.firstIndex(of: target)!) } }

        var histories: [StoreID: RewindHistory] = [:]
        for entry in collected.entries { histories[entry.storeID, default: RewindHistory()].take(entry) }
        let ids = histories.keys.sorted()
        // A reset store cannot be rewound: refused before anything is touched.
        for id in ids where histories[id]!.present {
            if let reset = histories[id]!.resetAt {
                throw HubError(
                    code: .conflict,
                    message: "store \(id) was reset at seq \(reset) (a major version change dropped its data): its "
                        + "state at seq \(target) is gone; rewind to seq \(reset) or later")
            }
        }

        var result = RewindResult(seq: nil, changes: 0, stores: [], skipped: [])
        var rewound: [(store: any Store, seq: Int?)] = []
        for id in ids {
            var history = histories[id]!
            let earlier = history.skipped(id)
            if let earlier { result.skipped.append(earlier) }
            let gone = RewindResult.Skipped(store: id, reason: "removed while the rewind ran")
            guard history.present else { continue }
            guard let store = try? resolveStore(id) else {
                if earlier == nil { result.skipped.append(gone) }
                continue
            }
            let turn: StoreTurn
            do throws(HubError) {
                turn = try rewind(store, history: &history, after: collected.through, target: target)
            } catch {
                throw failure(error, of: id, target: target, puttingForward: rewound)
            }
            switch turn {
            case .rewound(let seq, let changes):
                guard changes > 0 else { continue }
                rewound.append((store, seq))
                result.stores.append(id)
                result.changes += changes
                if let seq { result.seq = max(result.seq ?? seq, seq) }
            case .removed:
                if earlier == nil { result.skipped.append(gone) }
            }
        }
        result.skipped.sort { $0.store < $1.store }
        return result
    }

    /// What one store's turn did.
    private enum StoreTurn {
        /// Its changes were undone (`changes` of them) with the change `seq` (`nil`: the undo changed nothing).
        case rewound(seq: Int?, changes: Int)
        /// It left the registry (or the hub stopped) before its turn.
        case removed
    }

    /// One store's turn: under its lock, the entries logged after `through` join its history, then its changes
    /// are undone in one transaction.
    private func rewind(_ store: any Store, history: inout RewindHistory, after through: Int, target: Int)
        throws(HubError) -> StoreTurn
    {
        let id = store.id
        var undone = 0
        var removed = false
        let context = "store \(id) cannot be rewound to seq \(target): "
        do throws(HubError) {
            let seq = try undoTransaction(
                on: store, context: context, conflict: Self.rewindConflict, mismatch: context + Self.rewindMismatch
            ) { () throws(HubError) -> StoreChange? in
                // Under the store's lock: every entry of this store is in the log, and no new one can come.
                let newer = state.withLock { $0.log.entries(from: through + 1, limit: .max) }
                for entry in newer where entry.storeID == id { history.take(entry) }
                guard history.present, registry.store(id) === store, state.withLock({ $0.known[id] != nil }) else {
                    removed = true
                    return nil
                }
                if let reset = history.resetAt {
                    throw HubError(
                        code: .conflict,
                        message: context + "it was reset at seq \(reset) while the rewind ran (its data was dropped)")
                }
                undone = history.changes.count
                return StoreChange(storeID: id, patches: history.changes.flatMap(\.patches), transactionID: nil)
            }
            return removed ? .removed : .rewound(seq: seq, changes: undone)
        } catch  where error.code == .unknownStore {
            return .removed  // the store refused the transaction: it was removed
        }
    }

    /// The error a rewind fails with when the store `id` refused its turn, after the stores already rewound were
    /// put forward again (newest first).
    private func failure(
        _ error: HubError, of id: StoreID, target: Int, puttingForward rewound: [(store: any Store, seq: Int?)]
    ) -> HubError {
        var stuck: [String] = []
        for (store, seq) in rewound.reversed() {
            guard let seq else { continue }
            let context = "store \(store.id) could not be put forward again: "
            do throws(HubError) {
                try undoTransaction(
                    on: store, context: context, conflict: Self.rewindConflict, mismatch: context + Self.rewindMismatch
                ) { () throws(HubError) -> StoreChange? in
                    state.withLock { $0.log.entry(seq: seq)?.change }
                }
            } catch {
                stuck.append(error.message)
            }
        }
        var message = error.message
        if !message.hasPrefix("store \(id) ") {
            message = "store \(id) refused the rewind to seq \(target): " + message
        }
        if !rewound.isEmpty {
            message +=
                stuck.isEmpty
                ? "; the stores rewound before it were put forward again, nothing changed"
                : "; " + stuck.map { $0 + " (it stays rewound)" }.joined(separator: "; ")
        }
        return HubError(code: .conflict, message: message)
    }
}

extension InspectorHub {
    /// How a rewind's undo reports a state that does not fit the log, and inverse patches that missed.
    fileprivate static let rewindConflict = "the state is not what the log says"
    fileprivate static let rewindMismatch = "the inverse patches did not give the state they describe"
}

/// What the log says about one store after the rewind's target seq, entry by entry.
struct RewindHistory {
    /// Whether the store was in the state at the target (its first entry after it is not its registration).
    private var existed: Bool?
    /// The first removal of the store that was there at the target.
    private var removedAt: Int?
    /// The newest registration.
    private var registeredAt: Int?
    /// Whether the store is in the state after the newest entry.
    private(set) var present = true
    /// A reset of the current incarnation.
    private(set) var resetAt: Int?
    /// The current incarnation's changes after the target (or after its registration), oldest first.
    private(set) var changes: [StoreChange] = []

    mutating func take(_ entry: HubLogEntry) {
        if existed == nil {
            if case .registered = entry.event { existed = false } else { existed = true }
        }
        switch entry.event {
        case .change(let change):
            changes.append(change)
        case .registered:
            registeredAt = entry.seq
            present = true
            resetAt = nil
            changes = []
        case .reset:
            resetAt = entry.seq
        case .removed:
            if existed == true, removedAt == nil { removedAt = entry.seq }
            present = false
            resetAt = nil
            changes = []
        }
    }

    /// Why the store cannot be put back as it was at the target, when it was there and was removed since.
    func skipped(_ id: StoreID) -> RewindResult.Skipped? {
        guard let removedAt else { return nil }
        guard present, let registeredAt, registeredAt > removedAt else {
            return .init(store: id, reason: "removed at seq \(removedAt); a removed store cannot come back")
        }
        return .init(
            store: id,
            reason: "removed at seq \(removedAt) and registered again at seq \(registeredAt); its state before "
                + "that is gone, only its changes since are undone")
    }
}
