import Foundation

/// Encodes any `Encodable` straight into a ``StoreValue`` tree, with no JSON in between.
///
/// ```swift
/// struct Cart: Codable { var total: Int; var price: Double; var note: String? }
/// let value = try StoreValueEncoder().encode(Cart(total: 2, price: 9.5, note: nil))
/// // ["total": .integer(2), "price": .number(9.5)]   (a nil optional leaves its key out)
/// ```
///
/// How values map:
/// - `Int`, `Int8`…`Int64`, `UInt`, `UInt8`…`UInt64` become `.integer`; an unsigned value above `Int64.max` throws
///   `EncodingError.invalidValue` (store such values as a `String` or a `Double`).
/// - `Float` and `Double` become `.number` (non-finite values included), `String` `.string`, `Bool` `.bool`,
///   `nil` `.null`; keyed containers become `.object`, unkeyed ones `.array`; a value that encodes nothing is `{}`.
/// - A ``StoreValue`` encodes as itself, a ``StoreColor`` as `.color` and an absolute `URL` as `.url` (a URL without
///   a scheme throws: a `.url` is always absolute).
/// - `Date` becomes `.number` holding its seconds since 1970-01-01 00:00:00 UTC (`timeIntervalSince1970`), and
///   `Data` a `.string` holding its base64 text. ``StoreValueDecoder`` reads both back.
public struct StoreValueEncoder: Sendable {
    /// Passed to every `encode(to:)` as the encoder's `userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    public init() {}

    /// The value as a ``StoreValue``; throws `EncodingError` when part of it cannot be stored.
    public func encode<T: Encodable>(_ value: T) throws -> StoreValue {
        let context = EncodingContext(userInfo: userInfo.mapValues { $0 as Any })
        let node = try context.encode(value, at: [])
        if let error = context.deferredError { throw error }
        return node.resolve()
    }
}

// MARK: - Encoding tree

/// One place in the tree being encoded. Containers handed out by the encoder keep a reference to their node and may
/// be written after the call that created them returned, so the tree is built from nodes and resolved at the end.
final class EncodingNode {
    /// A finished value (a scalar, or a ``StoreValue`` encoded as itself).
    var scalar: StoreValue?
    /// Set when the node is an unkeyed container.
    var elements: [EncodingNode]?
    /// Set when the node is a keyed container.
    var members: [String: EncodingNode]?

    init() {}
    init(_ value: StoreValue) { scalar = value }

    var isEmpty: Bool { scalar == nil && elements == nil && members == nil }

    func resolve() -> StoreValue {
        if let scalar { return scalar }
        if let elements { return .array(elements.map { $0.resolve() }) }
        if let members { return .object(members.mapValues { $0.resolve() }) }
        return .object([:])
    }
}

/// State shared by every encoder and container of one `encode` call.
final class EncodingContext {
    let userInfo: [CodingUserInfoKey: Any]
    /// The first misuse found where the `Encoder` API cannot throw (asking for a container of another kind at a place
    /// that already holds a value); `encode` throws it at the end.
    private(set) var deferredError: EncodingError?

    init(userInfo: [CodingUserInfoKey: Any]) { self.userInfo = userInfo }

    func recordConflict(at path: [any CodingKey], requested: String, node: EncodingNode) {
        guard deferredError == nil else { return }
        let found = node.resolve()
        deferredError = .invalidValue(
            found,
            .init(
                codingPath: path,
                debugDescription: "Asked for \(requested) where a \(found.typeName) was already encoded; "
                    + "encode one kind of container per value."))
    }

    /// Encodes `value` into a new node, taking the special cases (StoreValue, URL, StoreColor, Date, Data) first.
    func encode<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> EncodingNode {
        if let special = try Self.specialValue(value, at: path) { return EncodingNode(special) }
        let node = EncodingNode()
        try value.encode(to: StoreValueEncoding(node: node, codingPath: path, context: self))
        return node
    }

    static func specialValue<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> StoreValue? {
        switch value {
        case let value as StoreValue: return value
        case let color as StoreColor: return .color(color)
        case let url as URL: return try urlValue(url, at: path)
        case let date as Date: return .number(date.timeIntervalSince1970)
        case let data as Data: return .string(data.base64EncodedString())
        default: return nil
        }
    }

    static func urlValue(_ url: URL, at path: [any CodingKey]) throws -> StoreValue {
        let text = url.absoluteString
        guard let absolute = StoreValue.absoluteURL(text) else {
            throw EncodingError.invalidValue(
                url,
                .init(
                    codingPath: path,
                    debugDescription: "URL \"\(text)\" is not absolute; a StoreValue url needs a scheme. "
                        + "Store it as a String instead."))
        }
        return .url(absolute)
    }

    static func integer<I: BinaryInteger>(_ value: I, at path: [any CodingKey]) throws -> StoreValue {
        guard let integer = Int64(exactly: value) else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: path,
                    debugDescription: "\(I.self) value \(value) is above Int64.max (\(Int64.max)); a StoreValue "
                        + "integer is an Int64. Store it as a String or a Double instead."))
        }
        return .integer(integer)
    }
}

// MARK: - The Encoder

/// The `Encoder` handed to `encode(to:)`; it is also its own single-value container.
struct StoreValueEncoding: Encoder, SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let context: EncodingContext

    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        var target = node
        if node.isEmpty {
            node.members = [:]
        } else if node.members == nil {
            context.recordConflict(at: codingPath, requested: "a keyed container", node: node)
            target = EncodingNode()
            target.members = [:]
        }
        return KeyedEncodingContainer(
            StoreValueKeyedEncoder<Key>(node: target, codingPath: codingPath, context: context))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        var target = node
        if node.isEmpty {
            node.elements = []
        } else if node.elements == nil {
            context.recordConflict(at: codingPath, requested: "an unkeyed container", node: node)
            target = EncodingNode()
            target.elements = []
        }
        return StoreValueUnkeyedEncoder(node: target, codingPath: codingPath, context: context)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    // MARK: SingleValueEncodingContainer

    /// Puts a finished value at this encoder's place; a place holds one value.
    func store(_ value: StoreValue) throws {
        guard node.isEmpty else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: codingPath,
                    debugDescription: "A \(node.resolve().typeName) was already encoded here; "
                        + "a single-value container holds one value."))
        }
        node.scalar = value
    }

    func encodeNil() throws { try store(.null) }
    func encode(_ value: Bool) throws { try store(.bool(value)) }
    func encode(_ value: String) throws { try store(.string(value)) }
    func encode(_ value: Double) throws { try store(.number(value)) }
    func encode(_ value: Float) throws { try store(.number(Double(value))) }
    func encode(_ value: Int) throws { try store(EncodingContext.integer(value, at: codingPath)) }
    func encode(_ value: Int8) throws { try store(EncodingContext.integer(value, at: codingPath)) }
    func encode(_ value: Int16) throws { try store(EncodingContext.integer(value, at: codingPath)) }
    func encode(_ value: Int32) throws { try store(EncodingContext.integer(value, at: codingPath)) }
    func encode(_ value: Int64) throws { try store(EncodingContext.integer(value, at: codingPath)) }
    func encode(_ value: UInt) throws { try store(EncodingContext.integer(value, at: codingPath)) }
    func encode(_ value: UInt8) throws { try store(EncodingContext.integer(value, at: codingPath)) }
    func encode(_ value: UInt16) throws { try store(EncodingContext.integer(value, at: codingPath)) }
    func encode(_ value: UInt32) throws { try store(EncodingContext.integer(value, at: codingPath)) }
    func encode(_ value: UInt64) throws { try store(EncodingContext.integer(value, at: codingPath)) }

    func encode<T: Encodable>(_ value: T) throws {
        if let special = try EncodingContext.specialValue(value, at: codingPath) {
            try store(special)
        } else {
            // A wrapper encoding its wrapped value: the wrapped value writes into this same place.
            try value.encode(to: self)
        }
    }
}

// MARK: - Coding keys

/// The keys the encoder and decoder put in coding paths for array indices, `super` and arbitrary object keys.
struct StoreValueCodingKey: CodingKey, Sendable {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    /// An array position, shown as `Index 3` like Foundation's coders do.
    init(index: Int) {
        self.stringValue = "Index \(index)"
        self.intValue = index
    }

    static let superKey = StoreValueCodingKey(stringValue: "super")
}
