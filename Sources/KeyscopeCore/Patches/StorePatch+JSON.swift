extension StorePatch {
    /// The patch as the JSON object of VALUES.md: `{"op", "path", "old"?, "new"?}`.
    public var jsonObject: StoreValue {
        var object: [String: StoreValue] = ["op": .string(op.rawValue), "path": .string(keyPath.description)]
        if let oldValue { object["old"] = oldValue }
        if let newValue { object["new"] = newValue }
        return .object(object)
    }

    /// Reads a patch from its JSON object, checking that its fields fit its `op`.
    public init(jsonObject value: StoreValue) throws(StoreError) {
        guard case .object(let object) = value else {
            throw StoreError(code: .badRequest, message: "a patch must be an object")
        }
        guard let opText = object["op"]?.stringValue, let op = Operation(rawValue: opText) else {
            throw StoreError(code: .badRequest, message: "a patch needs \"op\": set, insert, remove or merge")
        }
        guard let pathText = object["path"]?.stringValue else {
            throw StoreError(code: .badRequest, message: "a patch needs \"path\" as a string")
        }
        let path: StoreKeyPath
        do { path = try StoreKeyPath(parsing: pathText) } catch { throw .badPath(error) }
        try self.init(checking: op, keyPath: path, oldValue: object["old"], newValue: object["new"])
    }

    /// A patch whose fields are checked against its `op`, as ``init(jsonObject:)`` checks a patch read from JSON
    /// (`new` for set and insert, `old` without `new` for remove, objects for merge, an index path for insert, no
    /// insert or remove at the root, an object to set the root to): for readers that take the fields apart.
    public init(
        checking op: Operation, keyPath path: StoreKeyPath, oldValue old: StoreValue?, newValue new: StoreValue?
    )
        throws(StoreError)
    {
        switch op {
        case .set, .insert:
            guard new != nil else { throw .badRequest("a \(op) patch needs \"new\"", at: path) }
            if op == .insert, old != nil { throw .badRequest("an insert patch has no \"old\"", at: path) }
            if op == .insert, !path.endsInIndex { throw .badRequest("an insert patch needs an index path", at: path) }
        case .remove:
            guard old != nil, new == nil else {
                throw .badRequest("a remove patch has \"old\" and no \"new\"", at: path)
            }
        case .merge:
            guard case .object? = new, case .object? = old else {
                throw .badRequest("a merge patch needs \"old\" and \"new\" objects", at: path)
            }
        }
        if path.isRoot, op != .set, op != .merge {
            throw .badRequest("a \(op) patch cannot address the root", at: path)
        }
        if path.isRoot, op == .set, case .object? = new {
        } else if path.isRoot, op == .set {
            throw .typeMismatch("the root must be an object", at: path)
        }
        self.init(op: op, keyPath: path, oldValue: old, newValue: new)
    }
}

extension StoreKeyPath {
    var endsInIndex: Bool {
        if case .index = last { return true }
        return false
    }
}
