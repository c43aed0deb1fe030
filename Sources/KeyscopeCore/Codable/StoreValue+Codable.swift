import Foundation

/// `StoreValue` encodes and decodes through any `Encoder` and `Decoder`.
///
/// With ``StoreValueEncoder`` and ``StoreValueDecoder`` a `StoreValue` is stored as itself, exactly. With other
/// coders it takes the StoreValue JSON form as far as the container API allows: colors, URLs and non-finite numbers
/// become tagged objects (`{"$color": "#FF8800"}`, `{"$url": "https://…"}`, `{"$number": "nan"}`), and an object key
/// that begins with `$` is written with one more `$` (`$beta` is written `$$beta`) and read back with one removed.
///
/// ```swift
/// let value: StoreValue = ["accent": .color(StoreColor("#FF8800")!), "$beta": true]
/// let data = try JSONEncoder().encode(value)               // {"$$beta":true,"accent":{"$color":"#FF8800"}}
/// let back = try JSONDecoder().decode(StoreValue.self, from: data)   // == value
/// ```
///
/// Through Foundation's `JSONEncoder` a whole double loses its fraction (`.number(3.0)` is written `3`), so it comes
/// back from `JSONDecoder` as `.integer(3)`; a decoder that is not ours is tried for null, `Bool`, `Int64`, `Double`,
/// `String`, an array and an object, in that order. For the exact JSON form use ``StoreValue/init(jsonText:maxDepth:)``
/// and ``StoreValue/jsonText(sortedKeys:)``.
extension StoreValue: Codable {
    public func encode(to encoder: any Encoder) throws {
        if let encoding = encoder as? StoreValueEncoding {
            try encoding.store(self)
            return
        }
        switch self {
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .integer(let integer):
            var container = encoder.singleValueContainer()
            try container.encode(integer)
        case .number(let number) where number.isFinite:
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .number(let number):
            try Self.encodeTagged("$number", number.isNaN ? "nan" : number > 0 ? "inf" : "-inf", to: encoder)
        case .bool(let bool):
            var container = encoder.singleValueContainer()
            try container.encode(bool)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .color(let color):
            try Self.encodeTagged("$color", color.hex, to: encoder)
        case .url(let url):
            try Self.encodeTagged("$url", url.absoluteString, to: encoder)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let members):
            var container = encoder.container(keyedBy: StoreValueCodingKey.self)
            // Sorted so that coders which keep insertion order write the same text every time.
            for key in members.keys.sorted() {
                let written = key.unicodeScalars.first == "$" ? "$" + key : key
                try container.encode(members[key]!, forKey: StoreValueCodingKey(stringValue: written))
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        if let decoding = decoder as? StoreValueDecoding {
            self = decoding.value
            return
        }
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() {
                self = .null
                return
            }
            if let bool = try? single.decode(Bool.self) {
                self = .bool(bool)
                return
            }
            if let integer = try? single.decode(Int64.self) {
                self = .integer(integer)
                return
            }
            if let number = try? single.decode(Double.self) {
                self = .number(number)
                return
            }
            if let string = try? single.decode(String.self) {
                self = .string(string)
                return
            }
        }
        // Containers rather than `[StoreValue]`/`[String: StoreValue]` so that an error inside an element (a bad
        // tagged value) is thrown as it is instead of being mistaken for "not an array".
        if var container = try? decoder.unkeyedContainer() {
            var elements: [StoreValue] = []
            elements.reserveCapacity(container.count ?? 0)
            while !container.isAtEnd { elements.append(try container.decode(StoreValue.self)) }
            self = .array(elements)
            return
        }
        self = try Self.decodeObject(from: decoder.container(keyedBy: StoreValueCodingKey.self))
    }

    private static func encodeTagged(_ tag: String, _ payload: String, to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StoreValueCodingKey.self)
        try container.encode(payload, forKey: StoreValueCodingKey(stringValue: tag))
    }

    /// A one-key object whose key is `$number`, `$color` or `$url` is that tagged value (a bad payload throws); any
    /// other object loses one `$` from each key that begins with `$`.
    private static func decodeObject(from container: KeyedDecodingContainer<StoreValueCodingKey>) throws -> StoreValue {
        let keys = container.allKeys
        if keys.count == 1, let tag = keys.first, let tagged = try decodeTagged(tag, in: container) {
            return tagged
        }
        var members: [String: StoreValue] = [:]
        members.reserveCapacity(keys.count)
        for key in keys {
            let written = key.stringValue
            let name = written.unicodeScalars.first == "$" ? String(written.unicodeScalars.dropFirst()) : written
            guard members.updateValue(try container.decode(StoreValue.self, forKey: key), forKey: name) == nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container,
                    debugDescription: "The object has the key \"\(name)\" twice once one \"$\" is removed from "
                        + "\"\(written)\"; a stored key that begins with \"$\" is written with one more \"$\".")
            }
        }
        return .object(members)
    }

    private static func decodeTagged(
        _ tag: StoreValueCodingKey, in container: KeyedDecodingContainer<StoreValueCodingKey>
    ) throws -> StoreValue? {
        func payload(_ expected: String) throws -> String {
            guard let text = try? container.decode(String.self, forKey: tag) else {
                throw DecodingError.dataCorruptedError(
                    forKey: tag, in: container, debugDescription: "\(tag.stringValue) must be \(expected).")
            }
            return text
        }
        func bad(_ expected: String) -> DecodingError {
            DecodingError.dataCorruptedError(
                forKey: tag, in: container, debugDescription: "\(tag.stringValue) must be \(expected).")
        }
        switch tag.stringValue {
        case "$number":
            let expected = "\"nan\", \"inf\" or \"-inf\""
            switch try payload(expected) {
            case "nan": return .number(.nan)
            case "inf": return .number(.infinity)
            case "-inf": return .number(-.infinity)
            default: throw bad(expected)
            }
        case "$color":
            let expected = "\"#RRGGBB\" or \"#RRGGBBAA\""
            guard let color = StoreColor(try payload(expected)) else { throw bad(expected) }
            return .color(color)
        case "$url":
            let expected = "an absolute URL"
            guard let url = StoreValue.absoluteURL(try payload(expected)) else { throw bad(expected) }
            return .url(url)
        default:
            return nil
        }
    }
}
