/// A color written `#RRGGBB` or `#RRGGBBAA`, kept exactly as given (hex digit case included).
///
/// ```swift
/// let accent = StoreColor("#FF8800")!      // alpha 255
/// StoreValue.color(accent)                 // {"$color": "#FF8800"}
/// ```
public struct StoreColor: Sendable, Hashable, CustomStringConvertible {
    /// The `#`-prefixed hex text, case kept.
    public let hex: String

    /// Accepts `#` followed by exactly 6 or 8 hex digits; anything else is `nil`.
    public init?(_ hex: String) {
        let utf8 = hex.utf8
        guard utf8.count == 7 || utf8.count == 9, utf8.first == UInt8(ascii: "#"),
            utf8.dropFirst().allSatisfy(\.isHexDigit)
        else { return nil }
        self.hex = hex
    }

    /// Builds `#RRGGBB` (or `#RRGGBBAA` when `alpha` is not 255) in upper-case digits.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        var text = "#" + [red, green, blue].map(Self.hexByte).joined()
        if alpha != 255 { text += Self.hexByte(alpha) }
        self.hex = text
    }

    public var red: UInt8 { component(0) }
    public var green: UInt8 { component(1) }
    public var blue: UInt8 { component(2) }
    /// 255 for the six-digit form.
    public var alpha: UInt8 { hex.utf8.count == 9 ? component(3) : 255 }

    public var description: String { hex }

    private func component(_ index: Int) -> UInt8 {
        let start = hex.utf8.index(hex.utf8.startIndex, offsetBy: 1 + 2 * index)
        let end = hex.utf8.index(start, offsetBy: 2)
        return UInt8(hex[start..<end], radix: 16) ?? 0
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}

extension UInt8 {
    var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
