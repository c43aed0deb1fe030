public import Foundation
import Synchronization

/// The write path: every change of a store's state goes through `mutate` or `applyOne`, which take the write lock,
/// apply, and announce the change (gate, subscriptions, observers, live backend) in mutation order.
extension KeyValueStore {
    @discardableResult
    public func apply(_ operations: [StoreOperation], transactionID: UUID?) throws(StoreError) -> StoreChange? {
        if operations.count == 1, transactionID == nil { return try apply(operations[0]) }
        if !reservedRootKeys.isEmpty {
            for operation in operations { try operation.checkReserved(reservedRootKeys, in: id) }
        }
        return try storeErrors {
            try mutate(transactionID: transactionID) { state throws(StoreError) in
                try PatchRecorder.applyAll(operations, to: &state.root)
            }
        }
    }

    @discardableResult
    public func apply(_ operation: StoreOperation) throws(StoreError) -> StoreChange? {
        try applyOne(operation, returningChange: true)
    }

    public func write(_ operation: StoreOperation) throws(StoreError) {
        _ = try applyOne(operation, returningChange: false)
    }

    /// ``Store/set(_:_:)`` without the protocol's indirection (a witness call into `write`, and the generic code of
    /// the protocol's extension): the factory hands out `KeyValueStore`s, so this is the `set` programs call. The
    /// same write, and a refusal reported the same way.
    @discardableResult
    public func set(_ path: StoreKeyPath, _ value: StoreValue) -> Bool {
        do throws(StoreError) {
            _ = try applyOne(.set(path, value), returningChange: false)
            return true
        } catch {
            reportRefused(.set(path, value), error)
            return false
        }
    }

    @discardableResult
    public func transaction<R>(_ body: (StoreTransaction) throws -> R) throws -> R {
        var result: R?
        _ = try mutate(transactionID: UUID.transactionID()) { state in
            let transaction = StoreTransaction(root: state.root, storeID: id, reservedRootKeys: reservedRootKeys)
            defer { transaction.close() }
            result = try body(transaction)
            state.root = transaction.root
            return transaction.recorder.patches
        }
        return result!
    }

    /// Applies the operations `build` returns for the current root as one change from `origin` (see
    /// ``BackendLink/applyRemote(origin:_:)``).
    func applyRemote(origin: String, _ build: (StoreValue) -> [StoreOperation]) throws -> StoreChange? {
        try mutate(transactionID: nil, origin: origin) { state throws(StoreError) in
            try PatchRecorder.applyAll(build(state.root), to: &state.root)
        }
    }

    // MARK: Under the lock

    /// One operation as one change: the single writes (`set`, `insert`, `merge`, `remove`, and `apply` of one
    /// operation) come here rather than through `mutate`, without an array of operations or a recorder.
    ///
    /// What is made depends on who reads it, known under the lock (listening starts by taking it):
    /// - nobody (no caller wanting the change back, no gate, no registry, live backend or subscription): no patch
    ///   and no change, only the walk to the key and the write. A `set` through a non-throwing write on such a store
    ///   allocates nothing and copies neither a patch nor a change, whose reference counts (atomic operations) were
    ///   the bulk of a write's time;
    /// - only subscriptions: the patch, which they compare paths with, and no change;
    /// - anyone else: the patch, in an array, and the change, announced as `mutate` does.
    private func applyOne(_ operation: StoreOperation, returningChange: Bool) throws(StoreError) -> StoreChange? {
        if !reservedRootKeys.isEmpty { try operation.checkReserved(reservedRootKeys, in: id) }
        let me = currentThreadID()
        guard holder.load(ordering: .acquiring) != me else { throw reentrantError() }
        var queued = false
        var changed = false
        let change = try exclusive(as: me) { state throws(StoreError) -> StoreChange? in
            guard !state.removed else { throw removedError() }
            guard returningChange || isGated || state.isHeard else {
                changed = try state.root.applyUnrecorded(operation)
                return nil
            }
            let before = stateBefore(state)
            guard let patch = try state.root.apply(operation) else { return nil }
            changed = true
            guard returningChange || before != nil || state.registry != nil || state.backendSync != nil else {
                // Only subscriptions hear it: they need the patch, not a change.
                queueDeliveries(for: CollectionOfOne(patch), in: state, queued: &queued)
                return nil
            }
            let change = try announce(
                [patch], transactionID: nil, origin: nil, before: before, in: &state, queued: &queued)
            return returningChange ? change : nil
        }
        finishWrite(queued: queued, changed: changed)
        return change
    }

    /// Takes the write lock, runs `body`, and announces the patches it returns as one change.
    private func mutate(
        transactionID: UUID?, origin: String? = nil, _ body: (inout State) throws -> [StorePatch]
    ) throws -> StoreChange? {
        try checkNotReentrant()
        var queued = false
        let change = try exclusive { state throws -> StoreChange? in
            guard !state.removed else { throw removedError() }
            let before = stateBefore(state)
            let patches = try body(&state)
            guard !patches.isEmpty else { return nil }
            return try announce(
                patches, transactionID: transactionID, origin: origin, before: before, in: &state, queued: &queued)
        }
        finishWrite(queued: queued, changed: change != nil)
        return change
    }

    /// Builds the change of `patches` and announces it, under the lock and so in mutation order: the gate (which
    /// may refuse it: the root is then `before` again), subscriptions (values queued, delivered after the lock),
    /// observers, the live backend (only changes made here: one from `origin` came from it).
    private func announce(
        _ patches: [StorePatch], transactionID: UUID?, origin: String?, before: StoreValue?, in state: inout State,
        queued: inout Bool
    ) throws(StoreError) -> StoreChange {
        // A change from another instance with several patches is one transaction, as it was made there.
        let transactionID = transactionID ?? (origin != nil && patches.count > 1 ? UUID.transactionID() : nil)
        let change = StoreChange(storeID: id, patches: patches, transactionID: transactionID, origin: origin)
        if let before, let gate {
            do throws(StoreError) {
                try gate.willCommit(change, before: before, after: state.root)
            } catch {
                state.root = before
                throw error
            }
        }
        queueDeliveries(for: patches, in: state, queued: &queued)
        state.registry?.emit(.changed(change))
        if origin == nil { state.backendSync?.localChange(change, root: state.root) }
        return change
    }

    /// Queues the values that `patches` changed for the subscriptions that hear them (delivered after the lock).
    private func queueDeliveries(
        for patches: some Collection<StorePatch>, in state: borrowing State, queued: inout Bool
    ) {
        guard !state.subscriptions.isEmpty else { return }
        let items = state.subscriptions.changedValues(for: patches, in: state.root)
        queued = !items.isEmpty
        deliveriesQueue.enqueue(items)
    }

    /// After the lock: delivers the values a write queued and marks the data for saving.
    private func finishWrite(queued: Bool, changed: Bool) {
        // Every call that queues values drains after it (a write here, `reset`, a new subscription), and a drain
        // runs until the queue is empty: a write that queued nothing has nothing of its own to deliver, and skips
        // the queue's lock.
        if queued { deliveriesQueue.drain() }
        if changed { persistence?.markDirty() }
    }

    /// The root before a write, for the gate to compare with (a reference, not a copy); `nil` for the stores that
    /// have no gate. (Spelled out: in `isGated ? state.root : nil` the `nil` would be `StoreValue.null`.)
    private func stateBefore(_ state: borrowing State) -> StoreValue? {
        isGated ? .some(state.root) : .none
    }

    private func checkNotReentrant() throws(StoreError) {
        guard !isReentrant else { throw reentrantError() }
    }

    private func reentrantError() -> StoreError {
        StoreError(
            code: .reentrant,
            message: "a write to \(id) from inside its own transaction or observer; write through the "
                + "transaction's `tx`, or after the observer returns")
    }

    private func removedError() -> StoreError {
        StoreError(code: .storeRemoved, message: "store \(id) was removed; ask the factory again")
    }

    /// `body`'s errors as ``StoreError`` (`mutate` throws nothing else when its body does not).
    private func storeErrors<R>(_ body: () throws -> R) throws(StoreError) -> R {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(code: .badRequest, message: "\(error)")
        }
    }
}
