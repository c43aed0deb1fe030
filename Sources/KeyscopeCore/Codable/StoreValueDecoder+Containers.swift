// The keyed and unkeyed containers of StoreValueDecoder. Each value is read through a child `StoreValueDecoding`,
// so the conversions and error messages live in one place.

// MARK: - Keyed

struct StoreValueKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// The decoder of the object itself.
    let decoder: StoreValueDecoding
    let members: [String: StoreValue]

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    /// The decoder of the value at `key`; `keyNotFound` (at the object's path) when there is none.
    private func child(_ key: Key) throws -> StoreValueDecoding {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription: "No value for the key \"\(key.stringValue)\"; the object has "
                        + (members.isEmpty ? "no keys." : "the keys \(members.keys.sorted()).")))
        }
        return decoder.child(value, at: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).unbox(type) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    /// A decoder for the `super` key (over `.null` when it is missing, as Foundation does).
    func superDecoder() throws -> any Decoder {
        decoder.child(members[StoreValueCodingKey.superKey.stringValue] ?? .null, at: StoreValueCodingKey.superKey)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(members[key.stringValue] ?? .null, at: key)
    }
}

// MARK: - Unkeyed

struct StoreValueUnkeyedDecoder: UnkeyedDecodingContainer {
    /// The decoder of the array itself.
    let decoder: StoreValueDecoding
    let elements: [StoreValue]
    private(set) var currentIndex = 0

    init(decoder: StoreValueDecoding, elements: [StoreValue]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// Decodes the current element with `body` and moves past it only when that succeeded, so a caller may retry the
    /// same element as another type.
    private mutating func next<T>(_ type: T.Type, _ body: (StoreValueDecoding) throws -> T) throws -> T {
        try checkNotAtEnd(type)
        let result = try body(decoder.child(elements[currentIndex], at: StoreValueCodingKey(index: currentIndex)))
        currentIndex += 1
        return result
    }

    private func checkNotAtEnd(_ type: Any.Type) throws {
        guard isAtEnd else { return }
        throw DecodingError.valueNotFound(
            type,
            .init(
                codingPath: codingPath + [StoreValueCodingKey(index: currentIndex)],
                debugDescription: "Expected \(type) but the array ended (it has \(elements.count) elements)."))
    }

    /// True, and moves past the element, when the current element is `.null`.
    mutating func decodeNil() throws -> Bool {
        try checkNotAtEnd(Never?.self)
        guard case .null = elements[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.decode(type) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try $0.unbox(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next(KeyedDecodingContainer<NestedKey>.self) { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next((any UnkeyedDecodingContainer).self) { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next((any Decoder).self) { $0 }
    }
}
