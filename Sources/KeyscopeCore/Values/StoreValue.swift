public import Foundation

/// A value held in a store: the typed JSON-like tree every store, patch and log line is made of.
///
/// Integers and numbers are different cases (`3` is not `3.0`), colors and URLs are tagged values, and the
/// JSON form follows docs/store.md exactly (see ``StoreValue/init(jsonText:)`` and ``StoreValue/jsonText(sortedKeys:)``).
///
/// ```swift
/// let cart: StoreValue = ["total": 100, "currency": "EUR", "items": [["title": "Tea"]]]
/// cart["total"]          // .integer(100)
/// ```
public enum StoreValue: Sendable {
    case string(String)
    /// A finite or non-finite double; finite numbers are written with a fraction or an exponent.
    case number(Double)
    /// A whole number in the Int64 range; written without a fraction or exponent.
    case integer(Int64)
    case bool(Bool)
    case color(StoreColor)
    /// An absolute URL, compared by its exact string.
    case url(URL)
    case array([StoreValue])
    /// An object; key order does not matter.
    case object([String: StoreValue])
    case null
}

extension StoreValue {
    /// The name of the value's case, as used in error messages and by the dashboard (`"integer"`, `"object"`…).
    public var typeName: String {
        switch self {
        case .string: "string"
        case .number: "number"
        case .integer: "integer"
        case .bool: "bool"
        case .color: "color"
        case .url: "url"
        case .array: "array"
        case .object: "object"
        case .null: "null"
        }
    }

    /// The empty object, the root of a new store.
    public static let emptyObject = StoreValue.object([:])
}

// MARK: - Equality (docs/store.md "Equality")

extension StoreValue: Equatable {
    /// Same case and equal contents: `3 != 3.0`, NaN equals NaN, `0.0 != -0.0`, key order ignored.
    public static func == (lhs: StoreValue, rhs: StoreValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): a == b
        case let (.number(a), .number(b)): a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
        case let (.integer(a), .integer(b)): a == b
        case let (.bool(a), .bool(b)): a == b
        case let (.color(a), .color(b)): a == b
        case let (.url(a), .url(b)): a.absoluteString == b.absoluteString
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a == b
        case (.null, .null): true
        default: false
        }
    }
}

extension StoreValue: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let s):
            hasher.combine(0 as UInt8)
            hasher.combine(s)
        case .number(let d):
            hasher.combine(1 as UInt8)
            // All NaNs are equal, so they must hash alike; ±0 differ and hash apart through their bits.
            hasher.combine(d.isNaN ? Double.nan.bitPattern : d.bitPattern)
        case .integer(let i):
            hasher.combine(2 as UInt8)
            hasher.combine(i)
        case .bool(let b):
            hasher.combine(3 as UInt8)
            hasher.combine(b)
        case .color(let c):
            hasher.combine(4 as UInt8)
            hasher.combine(c)
        case .url(let u):
            hasher.combine(5 as UInt8)
            hasher.combine(u.absoluteString)
        case .array(let a):
            hasher.combine(6 as UInt8)
            hasher.combine(a)
        case .object(let o):
            hasher.combine(7 as UInt8)
            hasher.combine(o)
        case .null:
            hasher.combine(8 as UInt8)
        }
    }
}

// MARK: - Literals

extension StoreValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: StoreValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, StoreValue)...) {
        // Later duplicates win, as with a dictionary assignment; literals with duplicate keys are a programmer slip.
        var object: [String: StoreValue] = [:]
        object.reserveCapacity(elements.count)
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}
