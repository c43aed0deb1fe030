import Testing

@testable import KeyscopeCore

/// The reader's exact number conversions give what `Int64(String)` and `Double(String)` (a correctly rounded
/// `strtod`) give, and leave the other literals to them.
@Suite struct JSONNumberTests {
    private static func exact(_ literal: String, isInteger: Bool) -> StoreValue? {
        var text = literal
        return text.withUTF8 { JSONNumber.exactValue($0, isInteger: isInteger) }
    }

    @Test(arguments: [
        "0", "-0", "7", "-7", "42", "123456789012345678", "-123456789012345678", "100000000000000000",
    ])
    func integersUpTo18Digits(_ literal: String) throws {
        #expect(Self.exact(literal, isInteger: true) == .integer(Int64(literal)!))
        #expect(try StoreValue(jsonText: literal) == .integer(Int64(literal)!))
    }

    @Test(arguments: ["1234567890123456789", "-9223372036854775808", "9223372036854775807"])
    func longerIntegersGoTheGeneralWay(_ literal: String) throws {
        #expect(Self.exact(literal, isInteger: true) == nil)
        #expect(try StoreValue(jsonText: literal) == .integer(Int64(literal)!))
    }

    @Test(arguments: [
        "0.0", "-0.0", "0.1", "0.3", "162.71", "-162.71", "1.5", "99.99", "0.000000000000001", "123456789012.345",
        "999999999999999.0", "0.123456789012345", "5e-324", "1e2", "1.5E+3", "1.0000000000000002",
        "12345678901234567.5",
    ])
    func realsAreCorrectlyRounded(_ literal: String) throws {
        let expected = Double(literal)!
        if let exact = Self.exact(literal, isInteger: false) {
            #expect(exact == .number(expected), "\(literal)")
        }
        #expect(try StoreValue(jsonText: literal) == .number(expected), "\(literal)")
    }

    @Test func randomDecimalsAgreeWithStrtod() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...14, using: &rng)  // a "0" may be added after the point
            var text = String(Int64.random(in: 0..<1_000_000_000_000_000, using: &rng)).prefix(digits)
            let point = Int.random(in: 1...text.count, using: &rng)
            text.insert(".", at: text.index(text.startIndex, offsetBy: point))
            if point == text.count - 1 { text += "0" }
            let literal = (Bool.random(using: &rng) ? "-" : "") + text
            let exact = try #require(Self.exact(String(literal), isInteger: false), "\(literal)")
            #expect(exact == .number(Double(String(literal))!), "\(literal)")
        }
    }
}
