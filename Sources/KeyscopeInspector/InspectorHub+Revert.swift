import KeyscopeCore
public import KeyscopeProtocol
import Synchronization

extension InspectorHub {
    /// Applies the inverse of change `seq` as a new change and returns that change's seq; `nil` when the inverse
    /// changes no value (reverting a write of an equal value), in which case nothing is recorded.
    ///
    /// All or nothing, under the store's lock, in one transaction: the inverse patches
    /// (``KeyscopeCore/StoreChange/inverted()``) are first checked against the current state with their old values
    /// (each path must still hold what the change left there, presence included; otherwise `conflict`), then applied
    /// as operations. Errors: `read_only`; `bad_request` for a seq no longer (or not yet) in the log or a store event;
    /// `unknown_store` when the change's store is gone; `conflict`.
    ///
    /// The recorded change equals the inverse patches: each operation records exactly its inverse patch (set back,
    /// remove, insert of the old element…, checked above to apply), except that the transaction folds consecutive
    /// writes to one path as usual (a change that merged `user` and then set `user.name` is undone by two writes to
    /// `user.name`, recorded as one patch).
    @discardableResult
    public func revert(seq: Int) throws(HubError) -> Int? {
        try refuseIfReadOnly()
        settle()  // so that the log's range is its bounded one
        let (entry, range) = state.withLock { ($0.log.entry(seq: seq), ($0.log.firstSeq, $0.log.lastSeq)) }
        guard let entry else {
            throw .badRequest(
                "seq \(seq) is not in the inspector's log (it holds \(range.0)...\(range.1)); only recent changes "
                    + "can be reverted")
        }
        guard let change = entry.change else {
            throw .badRequest("seq \(seq) is a store event, not a change; only changes can be reverted")
        }
        let store = try resolveStore(change.storeID)
        return try undoTransaction(
            on: store, context: "change \(seq) cannot be reverted: ", conflict: "the state has changed since",
            mismatch: "the inverse of change \(seq) did not restore the state; not applied"
        ) { () throws(HubError) -> StoreChange? in change }
    }

    /// Undoes the change `changes` gives (read inside the store's lock; `nil`: nothing to undo) in one transaction
    /// of `store` and returns the seq of the change made (`nil` when the undo leaves the state as it was): revert
    /// and rewind. The inverse is checked against the state first (`conflict`: `context` + `conflict` + the
    /// store's reason), then applied as operations (``KeyscopeCore/StoreOperation/init(recording:)``); a result
    /// other than the checked state is `bad_request` (`mismatch`) and nothing is applied.
    @discardableResult
    func undoTransaction(
        on store: any Store, context: String, conflict: String, mismatch: String,
        _ changes: () throws(HubError) -> StoreChange?
    ) throws(HubError) -> Int? {
        try transactionSeq(on: store, errorContext: context) { tx in
            guard let change = try changes() else { return nil }
            let inverse = change.inverted()
            let before = tx.get(.root) ?? .emptyObject
            var after = before
            do throws(StoreError) {
                try after.apply(change: inverse)
            } catch {
                throw HubError(code: .conflict, message: context + conflict + " (\(error.message))")
            }
            // A transaction records no patch only when its writes fold back to the state it started from, so from
            // here on this one records a change, emitted before anything else on this thread.
            guard after != before else { return nil }
            for patch in inverse.patches { try tx.apply(StoreOperation(recording: patch)) }
            guard tx.get(.root) == after else { throw HubError.badRequest(mismatch) }
            return (before, after)
        }
    }
}
