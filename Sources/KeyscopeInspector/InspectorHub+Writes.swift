import Foundation
public import KeyscopeCore
public import KeyscopeProtocol
import Synchronization

/// One operation of a client's `write` or `transaction` request, as it came off the wire (not yet validated).
///
/// ```swift
/// try hub.transaction(store: "app/memory", ops: [
///     HubWrite(op: "set", path: "cart.total", value: 120),
///     HubWrite(op: "remove", path: "cart.coupon"),
/// ])
/// ```
public struct HubWrite: Sendable, Hashable {
    /// `set`, `insert`, `remove` or `merge`.
    public var op: String
    /// A key path in docs/store.md syntax.
    public var path: String
    /// Required by `set`, `insert` and `merge` (an object); absent for `remove`.
    public var value: StoreValue?

    public init(op: String, path: String, value: StoreValue? = nil) {
        self.op = op
        self.path = path
        self.value = value
    }
}

extension InspectorHub {
    /// Applies one client write to a store and returns the seq of the change it made, or `nil` when nothing changed
    /// (removing a missing path).
    ///
    /// Checked in this order, and nothing is changed when any check fails: ``HubOptions/readOnly`` (`read_only`),
    /// the store (`unknown_store`), the op (`bad_request`), the path (`bad_path`, the message names the column),
    /// the value's presence and shape (`bad_request`; `type_mismatch` for a merge without an object); then the store
    /// applies it all or nothing (`type_mismatch`, `out_of_range`, `bad_request`).
    @discardableResult
    public func write(store: String, op: String, path: String, value: StoreValue?) throws(HubError) -> Int? {
        try writeReporting(store: store, op: op, path: path, value: value).seq
    }

    /// Applies client writes as one transaction (one change with one `txn`), all or nothing; returns its seq, or
    /// `nil` when its writes all folded away. Every op is validated before anything is applied; an error names the
    /// op (`ops[2]: …`). An empty list is `bad_request`.
    @discardableResult
    public func transaction(store: String, ops: [HubWrite]) throws(HubError) -> Int? {
        try refuseIfReadOnly()
        let target = try resolveStore(store)
        guard !ops.isEmpty else { throw .badRequest("a transaction needs at least one op in \"ops\"") }
        var operations: [StoreOperation] = []
        for (index, write) in ops.enumerated() {
            operations.append(try Self.operation(write, context: "ops[\(index)]: "))
        }
        return try apply(operations, transactionID: UUID(), to: target)
    }

    func refuseIfReadOnly() throws(HubError) { try checkWritable() }

    /// The registered store the hub knows with that id; `unknown_store` otherwise (also when the hub is stopped).
    func resolveStore(_ text: String) throws(HubError) -> any Store {
        guard let id = StoreID(text) else {
            throw HubError(
                code: .unknownStore, message: "\"\(text)\" is not a store id (<scope>/<storage>, like app/memory)")
        }
        return try resolveStore(id)
    }

    /// The registered store the hub knows with that id; `unknown_store` otherwise (also when the hub is stopped).
    public func store(_ id: StoreID) throws(HubError) -> any Store { try resolveStore(id) }

    func resolveStore(_ id: StoreID) throws(HubError) -> any Store {
        guard state.withLock({ $0.running && $0.known[id] != nil }), let store = registry.store(id) else {
            throw HubError(code: .unknownStore, message: "no store \(id) is registered; the snapshot lists the stores")
        }
        return store
    }

    /// Validates one wire operation: its op, its path, its value.
    static func operation(_ write: HubWrite, context: String) throws(HubError) -> StoreOperation {
        guard ["set", "insert", "remove", "merge"].contains(write.op) else {
            throw .badRequest(context + "unknown op \"\(write.op)\"; use set, insert, remove or merge")
        }
        let path: StoreKeyPath
        do {
            path = try StoreKeyPath(parsing: write.path)
        } catch {
            throw HubError(code: .badPath, message: context + error.description)
        }
        switch (write.op, write.value) {
        case ("remove", nil):
            guard !path.isRoot else { throw .badRequest(context + "remove needs a path; the root cannot be removed") }
            return .remove(path)
        case ("remove", _?):
            throw .badRequest(context + "remove takes no \"value\"")
        case (_, nil):
            throw .badRequest(context + "\(write.op) needs a \"value\"")
        case ("set", let value?):
            return .set(path, value)
        case ("insert", let value?):
            guard case .index = path.last else {
                throw .badRequest(context + "insert needs a path that ends in an index, like items[0]")
            }
            return .insert(path, value)
        case (_, .object(let members)?):
            return .merge(path, members)
        case (_, let value?):
            throw HubError(
                code: .typeMismatch, message: context + "merge needs an object as \"value\", not \(value.typeName)")
        }
    }

    /// Applies operations to the store `id` through the hub's validated write path and returns the seq of the change
    /// they made (`nil` when nothing changed). `transaction` makes them one change with one `txn` even when there is
    /// only one. Checked in this order, nothing changed when a check fails: read-only (``checkWritable()``), the
    /// store (`unknown_store`), then the store applies them all or nothing (`bad_path`, `type_mismatch`,
    /// `out_of_range`, `too_large`…).
    ///
    /// ```swift
    /// try hub.apply([.set(StoreKeyPath(segments: [.key("height")]), 64)], to: storeID)
    /// ```
    @discardableResult
    public func apply(_ operations: [StoreOperation], to id: StoreID, transaction: Bool = false) throws(HubError)
        -> Int?
    {
        try checkWritable()
        return try apply(operations, transactionID: transaction ? UUID() : nil, to: try resolveStore(id))
    }

    /// Applies validated operations and finds the seq the observer gave their change (see ``WriteTicket``).
    func apply(_ operations: [StoreOperation], transactionID: UUID?, to store: any Store) throws(HubError)
        -> Int?
    {
        let ticket = WriteTicket(hub: self, storeID: store.id)
        let change: StoreChange?
        do {
            change = try ticket.bound { try store.apply(operations, transactionID: transactionID) }
        } catch let error as StoreError {
            throw HubError(error)
        } catch {
            throw .badRequest("\(error)")
        }
        guard let change, let entry = ticket.entry, entry.change == change else { return nil }
        return entry.seq
    }

    /// Runs `body` as one transaction of the store `id` and returns the seq of the change it made (`nil` when it
    /// wrote nothing), for writes that decide what to write from the state they see (a feature replacing a whole set of keys). Read-
    /// only and the store are checked first, as for ``apply(_:to:transaction:)``; then as
    /// ``transactionSeq(on:errorContext:_:)``.
    @discardableResult
    public func applyTransaction(
        on id: StoreID, errorContext: String = "",
        _ body: (StoreTransaction) throws -> (before: StoreValue, after: StoreValue)?
    ) throws(HubError) -> Int? {
        try checkWritable()
        return try transactionSeq(on: try resolveStore(id), errorContext: errorContext, body)
    }

    /// Runs a write that a feature makes through code of its own (a value saved somewhere else first, then mirrored
    /// into the store `id`) and returns the seq of the change it made to `id`, or `nil`. Read-only is checked first.
    /// The write's errors pass through; any other error is `bad_request`.
    @discardableResult
    public func seqOfWrite(to id: StoreID, _ write: () throws(HubError) -> Void) throws(HubError) -> Int? {
        try checkWritable()
        let ticket = WriteTicket(hub: self, storeID: id)
        do {
            try ticket.bound { try write() }
        } catch let error as HubError {
            throw error
        } catch {
            throw .badRequest("\(error)")
        }
        return ticket.entry?.seq
    }

    /// Runs `body` as one transaction of `store` and returns the seq of the change it made, for writes whose body
    /// decides what to write from the state it sees (revert, a feature replacing a set of keys). `body` returns the state it
    /// saw and the one it leaves, or `nil` when it writes nothing.
    ///
    /// The entry logged meanwhile counts as this write's only when it is a transaction's change that turns the first
    /// state into the second: a store may record another thread's change first. Errors: a `HubError` from `body`
    /// as it is, a `StoreError` prefixed with `errorContext`.
    func transactionSeq(
        on store: any Store, errorContext: String,
        _ body: (StoreTransaction) throws -> (before: StoreValue, after: StoreValue)?
    ) throws(HubError) -> Int? {
        let ticket = WriteTicket(hub: self, storeID: store.id)
        let states: (before: StoreValue, after: StoreValue)?
        do {
            states = try ticket.bound { try store.transaction(body) }
        } catch let error as HubError {
            throw error
        } catch let error as StoreError {
            throw HubError(error, context: errorContext)
        } catch {
            throw .badRequest("\(error)")
        }
        guard let states, let entry = ticket.entry, let made = entry.change, made.transactionID != nil else {
            return nil
        }
        var replayed = states.before
        guard (try? replayed.apply(change: made)) != nil, replayed == states.after else { return nil }
        return entry.seq
    }
}
