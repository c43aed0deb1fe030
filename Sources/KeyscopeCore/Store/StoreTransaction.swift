/// The write access a ``Store/transaction(_:)`` body gets: reads see the body's own writes; everything commits
/// as one change when the body returns, and nothing does when it throws.
///
/// ```swift
/// try store.transaction { tx in
///     let total = tx.get("cart.total")?.integerValue ?? 0
///     try tx.set("cart.total", .integer(total + 10))
/// }
/// ```
/// Not thread-safe: use it only inside the body, on the body's thread.
public final class StoreTransaction {
    var root: StoreValue
    var recorder = PatchRecorder()
    private var isOpen = true
    private let storeID: StoreID
    private let reservedRootKeys: Set<String>

    init(root: StoreValue, storeID: StoreID, reservedRootKeys: Set<String>) {
        self.root = root
        self.storeID = storeID
        self.reservedRootKeys = reservedRootKeys
    }

    /// The value at `path` as the transaction sees it.
    public func get(_ path: StoreKeyPath) -> StoreValue? { root[path] }

    /// Whether a value is at `path` as the transaction sees it.
    public func exists(_ path: StoreKeyPath) -> Bool { root[path] != nil }

    /// Applies one operation inside the transaction; a refused one changes nothing and throws.
    public func apply(_ operation: StoreOperation) throws(StoreError) {
        guard isOpen else {
            throw StoreError(code: .badRequest, message: "the transaction has ended; write inside its body")
        }
        if !reservedRootKeys.isEmpty { try operation.checkReserved(reservedRootKeys, in: storeID) }
        if let patch = try root.apply(operation) { recorder.record(patch) }
    }

    public func set(_ path: StoreKeyPath, _ value: StoreValue) throws(StoreError) { try apply(.set(path, value)) }
    public func insert(_ path: StoreKeyPath, _ value: StoreValue) throws(StoreError) {
        try apply(.insert(path, value))
    }
    public func remove(_ path: StoreKeyPath) throws(StoreError) { try apply(.remove(path)) }
    public func merge(_ path: StoreKeyPath, _ members: [String: StoreValue]) throws(StoreError) {
        try apply(.merge(path, members))
    }

    /// Encodes `value` and sets it at `path`.
    public func set<T: Encodable>(_ path: StoreKeyPath, encoding value: T) throws {
        try apply(.set(path, try StoreValueEncoder().encode(value)))
    }

    func close() { isOpen = false }
}
