// STUB: replaced by the Codable helper.
public struct StoreValueDecoder: Sendable {
    public init() {}
    public func decode<T: Decodable>(_ type: T.Type, from value: StoreValue) throws -> T { fatalError("stub") }
}
