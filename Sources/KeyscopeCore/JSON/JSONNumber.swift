/// JSON numbers for the core's reader: the grammar, and the value of a literal, computed from its digits where that
/// is exact (recordings and snapshots are full of small integers and prices), else by `Int64(String)` and
/// `Double(String)` (a correctly rounded `strtod`).
enum JSONNumber {
    /// Reads the number literal at `position` (a `-` or a digit is there) and moves `position` past it.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int) throws(StoreValueJSONError)
        -> StoreValue
    {
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func error(_ reason: String, at offset: Int? = nil) -> StoreValueJSONError {
            StoreValueJSONError(offset: offset ?? position, reason: reason)
        }
        let start = position
        var isInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected a digit") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) { throw error("a number has no leading zeros") }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected a digit after \".\"") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected an exponent digit") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let span = UnsafeBufferPointer(rebasing: bytes[start..<position])
        if let exact = exactValue(span, isInteger: isInteger) { return exact }
        let literal = String(decoding: span, as: UTF8.self)
        if isInteger {
            guard let value = Int64(literal) else {
                throw error("the integer \(literal) is outside the Int64 range", at: start)
            }
            return .integer(value)
        }
        guard let value = Double(literal), value.isFinite else {
            throw error("the number \(literal) does not fit in a double", at: start)
        }
        return .number(value)
    }

    /// The value of `literal` (already checked against the JSON number grammar), or `nil` when it is not one of the
    /// easy cases and must be converted the general way:
    /// - an integer of at most 18 digits (below 10¹⁸, so no overflow is possible);
    /// - a real without exponent with at most 15 digits in all: its digits are an integer `m` below 2⁵³ and its
    ///   fraction has `k ≤ 15` digits, so `m` and `10ᵏ` are exact doubles and the one IEEE division `m / 10ᵏ` is
    ///   the correctly rounded value of the literal (the classic exact case of decimal conversion, Clinger 1990),
    ///   which is what a correctly rounded `strtod` returns.
    static func exactValue(_ literal: UnsafeBufferPointer<UInt8>, isInteger: Bool) -> StoreValue? {
        var index = 0
        let negative = literal.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: Int64 = 0
        var digits = 0
        var fractionDigits = 0
        var inFraction = false
        while index < literal.count {
            let byte = literal[index]
            index += 1
            if byte == UInt8(ascii: ".") {
                inFraction = true
                continue
            }
            // An exponent: the general way.
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            mantissa = mantissa &* 10 &+ Int64(byte &- 0x30)
            digits += 1
            if inFraction { fractionDigits += 1 }
        }
        if isInteger {
            guard digits <= 18 else { return nil }
            return .integer(negative ? -mantissa : mantissa)
        }
        guard digits <= 15 else { return nil }
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return .number(negative ? -value : value)
    }

    /// 10⁰ … 10¹⁵, each exact in a double.
    private static let powersOfTen: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ]
}
