import Foundation

/// Decodes any `Decodable` straight from a ``StoreValue`` tree, with no JSON in between.
///
/// ```swift
/// struct Cart: Codable { var total: Int; var price: Double; var note: String? }
/// let cart = try StoreValueDecoder().decode(Cart.self, from: ["total": 2, "price": 9.5])
/// // Cart(total: 2, price: 9.5, note: nil)
/// ```
///
/// What each type accepts (the reverse of ``StoreValueEncoder``, a little more lenient):
/// - Integer types: `.integer`, or a `.number` that is a whole number; a value outside the target type's range
///   throws `DecodingError.dataCorrupted`.
/// - `Double`, `Float`: `.number` or `.integer`. `String`: `.string`, or the text of a `.color` or `.url`.
///   `Bool`: `.bool`. A ``StoreValue`` decodes as itself.
/// - `URL`: `.url`, or a `.string` holding an absolute URL. ``StoreColor``: `.color`, or a `.string` in `#RRGGBB` or
///   `#RRGGBBAA` form. `Date`: a number of seconds since 1970 (`.number` or `.integer`). `Data`: a base64 `.string`.
///
/// Errors follow Foundation's decoders: a missing key is `DecodingError.keyNotFound` (its coding path is the
/// enclosing object's), `.null` where a value is needed is `valueNotFound`, and any other wrong case is
/// `typeMismatch`, whose message names the ``StoreValue/typeName`` found.
public struct StoreValueDecoder: Sendable {
    /// Passed to every `init(from:)` as the decoder's `userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    public init() {}

    /// Decodes a `T` from `value`; throws `DecodingError` when `value` does not have `T`'s shape.
    public func decode<T: Decodable>(_ type: T.Type, from value: StoreValue) throws -> T {
        let decoder = StoreValueDecoding(value: value, codingPath: [], userInfo: userInfo.mapValues { $0 as Any })
        return try decoder.unbox(type)
    }
}

/// The `Decoder` handed to `init(from:)`; it is also its own single-value container.
struct StoreValueDecoding: Decoder, SingleValueDecodingContainer {
    let value: StoreValue
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    /// A decoder for `value` one level down, at `key`.
    func child(_ value: StoreValue, at key: any CodingKey) -> StoreValueDecoding {
        StoreValueDecoding(value: value, codingPath: codingPath + [key], userInfo: userInfo)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: StoreValue].self, "an object") }
        return KeyedDecodingContainer(StoreValueKeyedDecoder<Key>(decoder: self, members: members))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([StoreValue].self, "an array") }
        return StoreValueUnkeyedDecoder(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Errors

    /// `valueNotFound` for `.null`, otherwise `typeMismatch` naming the case found.
    func mismatch(_ type: Any.Type, _ expected: String? = nil) -> DecodingError {
        let wanted = expected ?? "\(type)"
        if case .null = value {
            return .valueNotFound(
                type, .init(codingPath: codingPath, debugDescription: "Expected \(wanted) but found null."))
        }
        return .typeMismatch(
            type,
            .init(
                codingPath: codingPath,
                debugDescription: "Expected \(wanted) but found a value of type \(value.typeName)."))
    }

    func corrupted(_ message: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: message))
    }

    // MARK: Values

    /// Decodes a `T` from this decoder's value, taking the special cases (StoreValue, URL, StoreColor, Date, Data)
    /// first.
    func unbox<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == StoreValue.self { return value as! T }
        if T.self == URL.self { return try decodeURL() as! T }
        if T.self == StoreColor.self { return try decodeColor() as! T }
        if T.self == Date.self { return try decodeDate() as! T }
        if T.self == Data.self { return try decodeData() as! T }
        return try T(from: self)
    }

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(type) }
        return bool
    }

    func decode(_ type: String.Type) throws -> String {
        switch value {
        case .string(let string): return string
        case .color(let color): return color.hex
        case .url(let url): return url.absoluteString
        default: throw mismatch(type)
        }
    }

    func decode(_ type: Double.Type) throws -> Double {
        switch value {
        case .number(let number): return number
        case .integer(let integer): return Double(integer)
        default: throw mismatch(type)
        }
    }

    func decode(_ type: Float.Type) throws -> Float {
        switch value {
        case .number(let number):
            guard !number.isFinite || number.magnitude <= Double(Float.greatestFiniteMagnitude) else {
                throw corrupted("Number \(number) does not fit in Float.")
            }
            return Float(number)
        case .integer(let integer): return Float(integer)
        default: throw mismatch(type)
        }
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try unbox(type) }

    /// An `.integer` in `I`'s range, or a `.number` that is a whole number in `I`'s range.
    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        switch value {
        case .integer(let integer):
            guard let result = I(exactly: integer) else {
                throw corrupted("Integer \(integer) does not fit in \(I.self) (\(I.min)...\(I.max)).")
            }
            return result
        case .number(let number):
            guard number.isFinite, number.rounded(.towardZero) == number else {
                throw corrupted("Number \(number) is not a whole number, so it cannot be decoded as \(I.self).")
            }
            guard let result = I(exactly: number) else {
                throw corrupted("Number \(number) does not fit in \(I.self) (\(I.min)...\(I.max)).")
            }
            return result
        default:
            throw mismatch(type)
        }
    }

    private func decodeURL() throws -> URL {
        switch value {
        case .url(let url): return url
        case .string(let text):
            guard let url = StoreValue.absoluteURL(text) else {
                throw corrupted("String \"\(text)\" is not an absolute URL, so it cannot be decoded as URL.")
            }
            return url
        default: throw mismatch(URL.self)
        }
    }

    private func decodeColor() throws -> StoreColor {
        switch value {
        case .color(let color): return color
        case .string(let text):
            guard let color = StoreColor(text) else {
                throw corrupted("String \"\(text)\" is not a color; expected \"#RRGGBB\" or \"#RRGGBBAA\".")
            }
            return color
        default: throw mismatch(StoreColor.self)
        }
    }

    /// Seconds since 1970, the form ``StoreValueEncoder`` writes.
    private func decodeDate() throws -> Date {
        let seconds: Double
        switch value {
        case .number(let number): seconds = number
        case .integer(let integer): seconds = Double(integer)
        default: throw mismatch(Date.self, "a Date (a number of seconds since 1970)")
        }
        guard seconds.isFinite else { throw corrupted("Number \(seconds) is not a valid Date.") }
        return Date(timeIntervalSince1970: seconds)
    }

    private func decodeData() throws -> Data {
        guard case .string(let text) = value else { throw mismatch(Data.self, "Data (a base64 string)") }
        guard let data = Data(base64Encoded: text) else {
            throw corrupted("String is not valid base64, so it cannot be decoded as Data.")
        }
        return data
    }
}
