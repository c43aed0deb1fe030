/// Decides whether a change may be committed to a store, and may carry it to where the data really lives: the
/// last step of every write, transaction and reset-free mutation of a ``KeyValueStore`` made with a gate.
///
/// The store calls the gate under its lock, after the operations have produced `after` and before anyone (the
/// subscribers, the inspector) hears of the change. A gate that throws refuses the change: the store goes back to
/// `before`, records nothing, and the writer gets the error. Keyscope's preference mirrors use it to write each
/// edit through to its UserDefaults suite or secret store, so that an edit from the dashboard, a revert or a replay
/// reaches the app's real preferences, or fails as a whole.
///
/// ```swift
/// struct NoNegativeTotals: StoreCommitGate {
///     func willCommit(_ change: StoreChange, before: StoreValue, after: StoreValue) throws(StoreError) {
///         if let total = after["cart.total"]?.integerValue, total < 0 {
///             throw StoreError(code: .badRequest, message: "cart.total cannot go below 0")
///         }
///     }
/// }
/// let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory), gate: NoNegativeTotals())
/// ```
/// Keep it short: it runs under the store's lock (a call back into the same store is refused as `reentrant`).
public protocol StoreCommitGate: Sendable {
    /// Accepts `change`, which turns `before` into `after`, or throws to refuse it (nothing changes).
    func willCommit(_ change: StoreChange, before: StoreValue, after: StoreValue) throws(StoreError)
}
