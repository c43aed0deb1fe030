public import Foundation
import Logging

/// A scoped key-value container addressed by key paths: the state a service keeps and Keyscope inspects.
///
/// ```swift
/// let store = factory.store(scope: .app, storage: .memory)
/// store.set("cart.total", 100)                       // non-throwing: a refused write is logged
/// try store.apply(.insert("items[0]", ["title": "Tea"]))   // throwing
/// try store.transaction { tx in
///     try tx.set("cart.total", 120)
///     try tx.remove("cart.coupon")
/// }
/// let cancellable = store.publisher(for: "cart").sink { print($0 ?? "nothing") }
/// ```
/// Every store serialises its writes; reads are safe from any thread.
public protocol Store: AnyObject, Sendable {
    /// `<scope>/<storage>`.
    var id: StoreID { get }
    /// The version of the data's shape; a major bump drops persisted data (see ``DefaultStoreFactory``).
    var version: SemanticVersion { get }
    /// The whole state: the root object.
    func snapshot() -> StoreValue
    /// The value at `path`, or `nil` when nothing is there.
    func get(_ path: StoreKeyPath) -> StoreValue?
    /// Applies operations all or nothing as one change (folded as a transaction when there are several) and
    /// returns it; `nil` when nothing changed (removing a missing path). Throws and changes nothing on any error.
    @discardableResult
    func apply(_ operations: [StoreOperation], transactionID: UUID?) throws(StoreError) -> StoreChange?
    /// Applies one operation as one change; see ``apply(_:transactionID:)``.
    @discardableResult
    func apply(_ operation: StoreOperation) throws(StoreError) -> StoreChange?
    /// Applies one operation as one change, like ``apply(_:)``, for a caller that does not need the change back:
    /// the non-throwing writes (``set(_:_:)`` and its siblings) go through it. A store that nobody observes can
    /// then skip building the change.
    func write(_ operation: StoreOperation) throws(StoreError)
    /// Runs `body` with exclusive access; its writes become one change with a fresh transaction id, or nothing if
    /// `body` throws. Write through `tx`, not through the store, inside the body.
    @discardableResult
    func transaction<R>(_ body: (StoreTransaction) throws -> R) throws -> R
    /// Values at `path` now and after every change to it (never twice the same value in a row).
    func publisher(for path: StoreKeyPath, label: String?) -> StorePublisher<StoreValue?>
    /// The present values of `paths` now and after every change to any of them.
    func publisher(for paths: Set<StoreKeyPath>, label: String?) -> StorePublisher<[StoreKeyPath: StoreValue]>
    /// The live subscriptions, for the inspector.
    var subscriptions: [SubscriptionInfo] { get }
}

extension Store {
    public var scope: Scope { id.scope }
    public var storage: Storage { id.storage }

    /// Whether a value is at `path`.
    public func exists(_ path: StoreKeyPath) -> Bool { get(path) != nil }

    /// Applies one operation; see ``apply(_:transactionID:)``.
    @discardableResult
    public func apply(_ operation: StoreOperation) throws(StoreError) -> StoreChange? {
        try apply([operation], transactionID: nil)
    }

    public func write(_ operation: StoreOperation) throws(StoreError) {
        _ = try apply(operation)
    }

    /// Applies several operations all or nothing, as one transaction.
    @discardableResult
    public func apply(_ operations: [StoreOperation]) throws(StoreError) -> StoreChange? {
        try apply(operations, transactionID: operations.count > 1 ? UUID.transactionID() : nil)
    }

    /// Replaces the whole state with `root` (one `set` patch at the root).
    @discardableResult
    public func replaceAll(with root: [String: StoreValue]) throws(StoreError) -> StoreChange? {
        try apply(.set(.root, .object(root)))
    }

    public func publisher(for path: StoreKeyPath) -> StorePublisher<StoreValue?> {
        publisher(for: path, label: nil)
    }

    public func publisher(for paths: Set<StoreKeyPath>) -> StorePublisher<[StoreKeyPath: StoreValue]> {
        publisher(for: paths, label: nil)
    }

    // MARK: Non-throwing writes: a refused write changes nothing and is reported through the logger.

    /// Sets `value` at `path`; returns whether it was applied (a refusal is logged with its reason).
    @discardableResult
    public func set(_ path: StoreKeyPath, _ value: StoreValue) -> Bool { report(.set(path, value)) }

    /// Inserts `value` into an array at `path` (ending in an index); returns whether it was applied.
    @discardableResult
    public func insert(_ path: StoreKeyPath, _ value: StoreValue) -> Bool { report(.insert(path, value)) }

    /// Merges `members` into the object at `path`; returns whether it was applied.
    @discardableResult
    public func merge(_ path: StoreKeyPath, _ members: [String: StoreValue]) -> Bool {
        report(.merge(path, members))
    }

    /// Removes the key or element at `path` (a missing one is fine); returns whether the request was valid.
    @discardableResult
    public func remove(_ path: StoreKeyPath) -> Bool { report(.remove(path)) }

    private func report(_ operation: StoreOperation) -> Bool {
        do {
            try write(operation)
            return true
        } catch {
            reportRefused(operation, error)
            return false
        }
    }

    /// Logs why a non-throwing write was refused.
    func reportRefused(_ operation: StoreOperation, _ error: any Error) {
        KeyscopeLog.store.error(
            "write refused", metadata: ["store": "\(id)", "path": "\(operation.keyPath)", "error": "\(error)"])
    }

    // MARK: Codable

    /// Decodes the value at `path` as `T`; `nil` when nothing is there.
    public func get<T: Decodable>(_ path: StoreKeyPath, as type: T.Type) throws -> T? {
        guard let value = get(path) else { return nil }
        return try StoreValueDecoder().decode(T.self, from: value)
    }

    /// Encodes `value` and sets it at `path` (throwing form).
    @discardableResult
    public func set<T: Encodable>(_ path: StoreKeyPath, encoding value: T) throws -> StoreChange? {
        try apply(.set(path, try StoreValueEncoder().encode(value)))
    }
}
