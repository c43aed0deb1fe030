// The keyed and unkeyed containers of StoreValueEncoder. Both write into a shared `EncodingNode`, so nested
// containers and super-encoders may be filled in after the call that created them returned.

// MARK: - Keyed

struct StoreValueKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    /// A node whose `members` is set.
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let context: EncodingContext

    private func put(_ value: StoreValue, _ key: Key) {
        let child = EncodingNode(value)
        node.members![key.stringValue] = child
    }

    private func integer(_ value: some BinaryInteger, _ key: Key) throws {
        put(try EncodingContext.integer(value, at: codingPath + [key]), key)
    }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(.number(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(.number(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try integer(value, key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let child = try context.encode(value, at: codingPath + [key])
        node.members![key.stringValue] = child
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child: EncodingNode
        if let existing = node.members![key.stringValue], existing.members != nil {
            child = existing  // asking twice for the same key's keyed container adds to it
        } else {
            child = EncodingNode()
            child.members = [:]
            node.members![key.stringValue] = child
        }
        return KeyedEncodingContainer(
            StoreValueKeyedEncoder<NestedKey>(node: child, codingPath: codingPath + [key], context: context))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child: EncodingNode
        if let existing = node.members![key.stringValue], existing.elements != nil {
            child = existing
        } else {
            child = EncodingNode()
            child.elements = []
            node.members![key.stringValue] = child
        }
        return StoreValueUnkeyedEncoder(node: child, codingPath: codingPath + [key], context: context)
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(key: StoreValueCodingKey.superKey)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(key: key)
    }

    private func superEncoder(key: any CodingKey) -> any Encoder {
        let child = EncodingNode()
        node.members![key.stringValue] = child
        return StoreValueEncoding(node: child, codingPath: codingPath + [key], context: context)
    }
}

// MARK: - Unkeyed

struct StoreValueUnkeyedEncoder: UnkeyedEncodingContainer {
    /// A node whose `elements` is set.
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let context: EncodingContext

    var count: Int { node.elements!.count }

    /// The coding path of the next element.
    private var nextPath: [any CodingKey] { codingPath + [StoreValueCodingKey(index: count)] }

    private func append(_ value: StoreValue) {
        node.elements!.append(EncodingNode(value))
    }

    private func integer(_ value: some BinaryInteger) throws {
        append(try EncodingContext.integer(value, at: nextPath))
    }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(.number(value)) }
    mutating func encode(_ value: Float) throws { append(.number(Double(value))) }
    mutating func encode(_ value: Int) throws { try integer(value) }
    mutating func encode(_ value: Int8) throws { try integer(value) }
    mutating func encode(_ value: Int16) throws { try integer(value) }
    mutating func encode(_ value: Int32) throws { try integer(value) }
    mutating func encode(_ value: Int64) throws { try integer(value) }
    mutating func encode(_ value: UInt) throws { try integer(value) }
    mutating func encode(_ value: UInt8) throws { try integer(value) }
    mutating func encode(_ value: UInt16) throws { try integer(value) }
    mutating func encode(_ value: UInt32) throws { try integer(value) }
    mutating func encode(_ value: UInt64) throws { try integer(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let child = try context.encode(value, at: nextPath)
        node.elements!.append(child)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        let child = EncodingNode()
        child.members = [:]
        node.elements!.append(child)
        return KeyedEncodingContainer(
            StoreValueKeyedEncoder<NestedKey>(node: child, codingPath: path, context: context))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        let child = EncodingNode()
        child.elements = []
        node.elements!.append(child)
        return StoreValueUnkeyedEncoder(node: child, codingPath: path, context: context)
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        let child = EncodingNode()
        node.elements!.append(child)
        return StoreValueEncoding(node: child, codingPath: path, context: context)
    }
}
