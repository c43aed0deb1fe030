public import KeyscopeCore
public import KeyscopeProtocol

/// What one client `write` did: the seq of its change, and the key path it made out of nothing, so that a client can
/// show a write to a misspelt path (`crat.total` makes a new top-level key `crat`) instead of it passing silently.
///
/// ```swift
/// let result = try hub.writeReporting(store: "app/memory", op: "set", path: "crat.total", value: 5)
/// result.seq           // 42
/// result.created       // crat (the store had no "crat" before)
/// result.jsonObject    // {"created": ["crat"], "seq": 42}
/// ```
public struct HubWriteResult: Sendable, Hashable {
    /// The seq of the change the write made; `nil` when nothing changed.
    public var seq: Int?
    /// The shortest prefix of the write's path that held no value before it and does now: a new top-level key, or a
    /// new key further down (`cart.coupn` when `cart` existed). `nil` when the path's object or array already
    /// held something there, when the new element is an array's (inserting or appending is not a new key), and for
    /// `remove`. Read just before the write is applied, so a concurrent writer of the same key can blur it.
    public var created: StoreKeyPath?

    public init(seq: Int?, created: StoreKeyPath? = nil) {
        self.seq = seq
        self.created = created
    }

    /// The reply's `result`: `{"seq": N}` (or `null`), with `"created": ["PATH"]` when the write created a key.
    public var jsonObject: StoreValue {
        var members: [String: StoreValue] = ["seq": seq.map { .integer(Int64($0)) } ?? .null]
        if let created { members["created"] = [.string(created.description)] }
        return .object(members)
    }

    /// The shortest prefix of `path` with no value in `store` (ending in a key, not an index); `nil` when every
    /// prefix up to `path` exists.
    static func firstMissingPrefix(of path: StoreKeyPath, in store: any Store) -> StoreKeyPath? {
        var prefix = StoreKeyPath(segments: [])
        for segment in path.segments {
            prefix = prefix.appending(segment)
            guard store.get(prefix) == nil else { continue }
            if case .index = segment { return nil }
            return prefix
        }
        return nil
    }
}

extension InspectorHub {
    /// ``write(store:op:path:value:)`` that also says which key the write created (``HubWriteResult/created``): what
    /// the server replies to a `write` request.
    public func writeReporting(store: String, op: String, path: String, value: StoreValue?) throws(HubError)
        -> HubWriteResult
    {
        try refuseIfReadOnly()
        let target = try resolveStore(store)
        let operation = try Self.operation(HubWrite(op: op, path: path, value: value), context: "")
        let missing: StoreKeyPath? =
            switch operation {
            case .remove: nil
            default: HubWriteResult.firstMissingPrefix(of: operation.keyPath, in: target)
            }
        let seq = try apply([operation], transactionID: nil, to: target)
        guard let seq else { return HubWriteResult(seq: nil) }
        return HubWriteResult(seq: seq, created: missing.flatMap { target.get($0) != nil ? $0 : nil })
    }
}
