import Foundation

/// How the wrappers turn values into stored text or bytes and back: JSON with sorted keys (so that equal values are
/// stored alike), a plain-value fallback for preferences written by older code, and error descriptions that never
/// repeat a secret.
enum PreferenceCoding {
    /// The JSON text of `value`, keys sorted; top-level scalars are allowed (`"dark"`, `3`, `true`, `null`).
    static func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    static func text<Value: Encodable>(_ value: Value) throws -> String {
        String(decoding: try encode(value), as: UTF8.self)
    }

    static func decode<Value: Decodable>(_ type: Value.Type, json: Data) throws -> Value {
        try JSONDecoder().decode(type, from: json)
    }

    /// A value read from a suite: JSON text (what ``UserDefaultValue`` writes) first, then (for values written by
    /// older code or by the `defaults` tool) the stored property-list value itself, read as the JSON it would be.
    enum StoredRead<Value> {
        case json(Value)
        case plain(Value)
        case failed(String)
    }

    static func decode<Value: Decodable>(_ type: Value.Type, stored object: Any) -> StoredRead<Value> {
        var firstError: (any Error)?
        if let text = object as? String {
            do { return .json(try decode(type, json: Data(text.utf8))) } catch { firstError = error }
        } else if let data = object as? Data {
            do { return .json(try decode(type, json: data)) } catch { firstError = error }
        }
        do {
            let json = try JSONSerialization.data(withJSONObject: jsonObject(plist: object), options: .fragmentsAllowed)
            return .plain(try decode(type, json: json))
        } catch {
            let reason = describe(firstError ?? error, of: type, secret: false)
            return .failed(
                "the stored \(plistTypeName(object)) is neither JSON of \(type) nor a plain \(type) (\(reason))")
        }
    }

    /// A secret read from a store: JSON (what ``KeychainValue`` writes) first, then the bytes as UTF-8 text taken as
    /// a JSON string (a raw token written by another tool, for string-like values).
    static func decodeSecret<Value: Decodable>(_ type: Value.Type, data: Data) -> StoredRead<Value> {
        let firstError: any Error
        do { return .json(try decode(type, json: data)) } catch { firstError = error }
        if let text = String(data: data, encoding: .utf8), let json = try? encode(text),
            let value = try? decode(type, json: json)
        {
            return .plain(value)
        }
        return .failed(
            "the stored \(data.count) bytes are not JSON of \(type) (\(describe(firstError, of: type, secret: true)))")
    }

    /// The property-list value as JSONSerialization takes it: dates become seconds since 2001 and data becomes
    /// base64 text (how JSONDecoder's default strategies read `Date` and `Data`), containers are walked.
    private static func jsonObject(plist object: Any) -> Any {
        switch object {
        case let date as Date: return date.timeIntervalSinceReferenceDate
        case let data as Data: return data.base64EncodedString()
        case let array as [Any]: return array.map(jsonObject(plist:))
        case let dictionary as [String: Any]: return dictionary.mapValues(jsonObject(plist:))
        default: return object
        }
    }

    static func plistTypeName(_ object: Any) -> String {
        switch object {
        case is String: "string"
        case is Data: "data"
        case is Date: "date"
        case is [Any]: "array"
        case is [String: Any]: "dictionary"
        default: "number"
        }
    }

    /// Says what went wrong without the value: for secrets only the kind of failure and the coding path (never a
    /// debug description, which may quote the input), for preferences the coder's own words too.
    static func describe(_ error: any Error, of type: Any.Type, secret: Bool) -> String {
        func path(_ context: some CodingPathContext) -> String {
            context.codingPath.isEmpty ? "top level" : context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        func words(_ debugDescription: String) -> String { secret ? "" : ": \(debugDescription)" }
        switch error {
        case DecodingError.typeMismatch(let expected, let context):
            return "expected \(expected) at \(path(context))\(words(context.debugDescription))"
        case DecodingError.valueNotFound(let expected, let context):
            return "no \(expected) at \(path(context))\(words(context.debugDescription))"
        case DecodingError.keyNotFound(let key, let context):
            return "missing key \"\(key.stringValue)\" at \(path(context))"
        case DecodingError.dataCorrupted(let context):
            return "not valid JSON at \(path(context))\(words(context.debugDescription))"
        case EncodingError.invalidValue(_, let context):
            return "cannot encode \(type) as JSON at \(path(context))\(words(context.debugDescription))"
        default:
            return secret ? "\(Swift.type(of: error))" : "\(error)"
        }
    }
}

/// The coding path of a coder's error context, so `describe` treats decoding and encoding errors alike.
protocol CodingPathContext {
    var codingPath: [any CodingKey] { get }
}

extension DecodingError.Context: CodingPathContext {}
extension EncodingError.Context: CodingPathContext {}
