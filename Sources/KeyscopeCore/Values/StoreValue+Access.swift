import Foundation

extension StoreValue {
    /// The string payload, if this is a `.string`.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The integer payload, if this is an `.integer`.
    public var integerValue: Int64? {
        if case .integer(let i) = self { return i }
        return nil
    }

    /// A double for either numeric case: `.number` as is, `.integer` converted.
    public var doubleValue: Double? {
        switch self {
        case .number(let d): d
        case .integer(let i): Double(i)
        default: nil
        }
    }

    /// The boolean payload, if this is a `.bool`.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The elements, if this is an `.array`.
    public var arrayValue: [StoreValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The members, if this is an `.object`.
    public var objectValue: [String: StoreValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member for `key` of an object, `nil` for other cases or a missing key.
    public subscript(key: String) -> StoreValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// The element at `index` of an array, `nil` for other cases or an index out of range.
    public subscript(index: Int) -> StoreValue? {
        if case .array(let a) = self, a.indices.contains(index) { return a[index] }
        return nil
    }

    /// The value at `path`, or `nil` when nothing is there (a missing key, an index past the end, a name into a
    /// non-object, a path that did not parse). The empty path is the value itself.
    public subscript(path: StoreKeyPath) -> StoreValue? {
        guard path.parseError == nil else { return nil }
        var current = self
        for segment in path.segments {
            switch (segment, current) {
            case (.key(let k), .object(let o)):
                guard let next = o[k] else { return nil }
                current = next
            case (.index(let i), .array(let a)):
                guard i < a.count else { return nil }
                current = a[i]
            default:
                return nil
            }
        }
        return current
    }
}
