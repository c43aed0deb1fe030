public import Foundation
public import KeyscopeCore
import KeyscopeTesting
public import Testing

/// The language-neutral JSON vectors of `fixtures/values/` (see its README), read with Foundation's decoder so that
/// the reader under test never reads its own test cases.
public enum ValueVectors {
    public struct Valid: Codable, Sendable, CustomTestStringConvertible {
        public let name: String
        public let json: String
        public let canonical: String
        public let type: String
        public var testDescription: String { name }
    }

    public struct Invalid: Codable, Sendable, CustomTestStringConvertible {
        public let name: String
        public let json: String
        public let reason: String
        public var testDescription: String { name }
    }

    public struct InvalidBytes: Codable, Sendable, CustomTestStringConvertible {
        public let name: String
        public let bytes: [UInt8]
        public let reason: String
        public var testDescription: String { name }
    }

    public struct Equality: Codable, Sendable, CustomTestStringConvertible {
        public let name: String
        public let a: String
        public let b: String
        public let equal: Bool
        public var testDescription: String { name }
    }

    public static func valid() throws -> [Valid] { try load("values/valid.json") }
    public static func invalid() throws -> [Invalid] { try load("values/invalid.json") }
    public static func invalidBytes() throws -> [InvalidBytes] { try load("values/invalid-bytes.json") }
    public static func equality() throws -> [Equality] { try load("values/equality.json") }

    static func load<T: Decodable>(_ path: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Fixtures.data(path))
    }

    /// What each of the three decoding entry points makes of some bytes, for checking that they agree
    /// (`text` is `nil` when the bytes are not UTF-8 and so cannot be a String).
    public struct Decodings {
        public let data: Result<StoreValue, StoreValueJSONError>
        public let bytes: Result<StoreValue, StoreValueJSONError>
        public let text: Result<StoreValue, StoreValueJSONError>?
    }

    public static func decodeAll(_ bytes: [UInt8]) -> Decodings {
        Decodings(
            data: Result { () throws(StoreValueJSONError) in try StoreValue(jsonData: Data(bytes)) },
            bytes: Result { () throws(StoreValueJSONError) in try StoreValue(jsonBytes: bytes) },
            text: String(validating: bytes, as: UTF8.self).map { text in
                Result { () throws(StoreValueJSONError) in try StoreValue(jsonText: text) }
            }
        )
    }
}
