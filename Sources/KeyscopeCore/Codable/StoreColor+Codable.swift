/// `StoreColor` encodes as its `#RRGGBB`/`#RRGGBBAA` text, so it can be a property of any `Codable` type.
///
/// ``StoreValueEncoder`` stores it as `.color`; other encoders write the hex string. Decoding accepts that string
/// (and, through ``StoreValueDecoder``, a `.color`); any other text throws `DecodingError.dataCorrupted`.
///
/// ```swift
/// struct Theme: Codable { var accent: StoreColor }
/// try StoreValueEncoder().encode(Theme(accent: StoreColor("#FF8800")!))   // ["accent": .color(#FF8800)]
/// ```
extension StoreColor: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let color = StoreColor(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not a color; expected \"#RRGGBB\" or \"#RRGGBBAA\".")
        }
        self = color
    }

    public func encode(to encoder: any Encoder) throws {
        if let encoding = encoder as? StoreValueEncoding {
            try encoding.store(.color(self))
            return
        }
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
