// STUB: replaced by the Codable helper.
public struct StoreValueEncoder: Sendable {
    public init() {}
    public func encode<T: Encodable>(_ value: T) throws -> StoreValue { fatalError("stub") }
}
