import KeyscopeCodec
import KeyscopeCore
import Testing

/// Nesting limits, values jansson cannot hold as they are (non-finite reals, NUL in keys), and bytes it must refuse.
@Suite("jansson codec limits and edge cases")
struct LimitTests {
    static func nestedArrays(_ depth: Int, around inner: String = "1") -> String {
        String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth)
    }

    static func nestedValue(_ depth: Int, around inner: StoreValue = 1) -> StoreValue {
        (0..<depth).reduce(inner) { value, _ in .array([value]) }
    }

    // MARK: Decoding depth

    @Test("513 nested arrays are refused by the pre-scan, naming the limit; 512 are fine")
    func defaultDepth() throws {
        #expect(try JanssonCodec.decode(Self.nestedArrays(512)) == Self.nestedValue(512))
        let error = try #require(throws: JanssonCodecError.self) { try JanssonCodec.decode(Self.nestedArrays(513)) }
        #expect(error.code == .tooDeep)
        #expect(error.message.contains("limit of 512 levels"))
        // Found by the pre-scan (a byte offset only, at the 513th bracket), not reported by jansson (a line too).
        #expect(error.position == 512)
        #expect(error.line == nil)
    }

    @Test("objects count like arrays, strings with brackets do not count")
    func depthCounting() throws {
        let objects = String(repeating: #"{"a":"#, count: 513) + "1" + String(repeating: "}", count: 513)
        #expect(throws: JanssonCodecError.self) { try JanssonCodec.decode(objects) }
        let brackets = "[\"" + String(repeating: "[{", count: 1000) + #"\"\\"# + "\"]"
        #expect(try JanssonCodec.decode(brackets) == [.string(String(repeating: "[{", count: 1000) + "\"\\")])
    }

    @Test("the limit is configurable, and capped at jansson's own parser limit")
    func configurableDepth() throws {
        #expect(try JanssonCodec.decode("[[[1]]]", maxDepth: 3) == [[[1]]])
        let error = try #require(throws: JanssonCodecError.self) { try JanssonCodec.decode("[[[[1]]]]", maxDepth: 3) }
        #expect(error.message.contains("limit of 3 levels"))
        #expect(throws: JanssonCodecError.self) { try JanssonCodec.decode(#"[{"$number":"nan"}]"#, maxDepth: 1) }

        // jansson counts the scalar inside too: 2047 arrays around a `1` are its limit of 2048 values.
        #expect(JanssonCodec.depthCeiling == 2047)
        #expect(try JanssonCodec.decode(Self.nestedArrays(2047), maxDepth: 100_000) == Self.nestedValue(2047))
        let capped = try #require(throws: JanssonCodecError.self) {
            try JanssonCodec.decode(Self.nestedArrays(2048), maxDepth: 100_000)
        }
        #expect(capped.code == .tooDeep)
        #expect(capped.message.contains("limit of 2047 levels"))
        #expect(
            try JanssonCodec.encode(Self.nestedValue(2047), maxDepth: 100_000) == Array(Self.nestedArrays(2047).utf8))
        #expect(throws: JanssonCodecError.self) { try JanssonCodec.encode(Self.nestedValue(2048), maxDepth: 100_000) }
        let objects = (0..<2045).reduce(StoreValue.object(["$k": .number(.nan)])) { value, _ in ["$k": value] }
        let objectText = try JanssonCodec.encode(objects, maxDepth: .max)
        #expect(objectText == objects.jsonBytes(sortedKeys: true))
        #expect(try JanssonCodec.decode(objectText, maxDepth: .max) == objects)
        #expect(throws: JanssonCodecError.self) { try JanssonCodec.encode(["k": objects], maxDepth: .max) }
    }

    @Test("100,000 levels of nesting are refused without a crash")
    func veryDeepInput() {
        for text in [
            Self.nestedArrays(100_000), String(repeating: "[", count: 100_000),
            String(repeating: #"{"a":"#, count: 100_000), String(repeating: "[{\"\":", count: 50_000),
        ] {
            let error = #expect(throws: JanssonCodecError.self) { try JanssonCodec.decode(text) }
            #expect(error?.code == .tooDeep)
        }
    }

    // MARK: Encoding depth

    @Test("encoding refuses output deeper than the limit; tag objects count as a level")
    func encodingDepth() throws {
        #expect(try JanssonCodec.encode(Self.nestedValue(512)) == Array(Self.nestedArrays(512).utf8))
        let error = try #require(throws: JanssonCodecError.self) { try JanssonCodec.encode(Self.nestedValue(513)) }
        #expect(error.code == .tooDeep)
        #expect(error.message.contains("limit of 512 levels"))

        // NaN inside 511 arrays is 512 levels deep once tagged; inside 512 arrays it would be 513.
        let nan = Self.nestedValue(511, around: .number(.nan))
        #expect(try StoreValue(jsonBytes: JanssonCodec.encode(nan)) == nan)
        #expect(throws: JanssonCodecError.self) { try JanssonCodec.encode(.array([nan])) }
        let color = StoreValue.color(StoreColor("#010203")!)
        #expect(throws: JanssonCodecError.self) { try JanssonCodec.encode(Self.nestedValue(512, around: color)) }
        #expect(throws: JanssonCodecError.self) { try JanssonCodec.encode(["a": ["b": 1]], maxDepth: 1) }
        #expect(try JanssonCodec.encode(["a": ["b": 1]], maxDepth: 2) == Array(#"{"a":{"b":1}}"#.utf8))
    }

    // MARK: Values jansson cannot hold as they are

    @Test("non-finite numbers round-trip through the tagged form")
    func nonFiniteNumbers() throws {
        let value: StoreValue = [
            .number(.nan), .number(-.nan), .number(.signalingNaN), .number(.infinity), .number(-.infinity),
            ["x": .number(.infinity)],
        ]
        let bytes = try JanssonCodec.encode(value)
        let expected =
            #"[{"$number":"nan"},{"$number":"nan"},{"$number":"nan"},{"$number":"inf"},"#
            + #"{"$number":"-inf"},{"x":{"$number":"inf"}}]"#
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(try JanssonCodec.decode(bytes) == value)
    }

    @Test("floats are written in their shortest round-trip form")
    func shortestFloats() throws {
        let cases: [(Double, String)] = [
            (0.42, "0.42"), (3.0, "3.0"), (1e300, "1e+300"), (0.1 + 0.2, "0.30000000000000004"), (-0.0, "-0.0"),
            (.leastNonzeroMagnitude, "5e-324"), (1e16, "1e+16"), (1e15, "1000000000000000.0"), (0.0001, "0.0001"),
            (1e-5, "1e-05"),
            (.greatestFiniteMagnitude, "1.7976931348623157e+308"), (123.456, "123.456"),
        ]
        for (number, text) in cases {
            #expect(try JanssonCodec.encode(.number(number)) == Array(text.utf8))
            #expect(try JanssonCodec.decode(text) == .number(number))
        }
    }

    @Test("NUL in strings and keys, as the core reads and writes them")
    func nulCharacters() throws {
        let text = #"{"a\u0000b":"x\u0000y","a\u0001":1,"\u0001\u0001":2,"\u0001\u0002":3,"\u0000":4}"#
        let value = try JanssonCodec.decode(text)
        let expected: StoreValue = ["a\u{0}b": "x\u{0}y", "a\u{1}": 1, "\u{1}\u{1}": 2, "\u{1}\u{2}": 3, "\u{0}": 4]
        #expect(value == expected)
        #expect(value == (try StoreValue(jsonText: text)))
        #expect(try JanssonCodec.encode(value) == value.jsonBytes(sortedKeys: true))
        #expect(String(decoding: try JanssonCodec.encode(["a\u{0}b": 1]), as: UTF8.self) == #"{"a\u0000b":1}"#)
        // A key that needs no rewrite keeps its \u0001; keys differing only after a NUL are different keys.
        #expect(try JanssonCodec.decode(#"{"\u0001":"\u0000"}"#) == ["\u{1}": "\u{0}"])
        #expect(try JanssonCodec.decode(#"{"a\u0000b":1,"a\u0000c":2}"#) == ["a\u{0}b": 1, "a\u{0}c": 2])
        #expect(throws: JanssonCodecError.self) { try JanssonCodec.decode(#"{"a\u0000":1,"a\u0000":2}"#) }
        #expect(throws: JanssonCodecError.self) { try JanssonCodec.decode(#"{"\u0000":1,"$\u0000":2}"#) }
        // `\\u0000` is a backslash and "u0000", not an escape: nothing to rewrite.
        #expect(try JanssonCodec.decode(#"{"\\u0000":1}"#) == ["\\u0000": 1])
    }

    @Test("a syntax error after a rewritten NUL key is reported where it is in the caller's text")
    func errorLocationAfterRewrite() throws {
        let rewritten = try #require(throws: JanssonCodecError.self) {
            try JanssonCodec.decode("{\"\\u0000\": 1,\n \"\\u0000x\": 2, }")
        }
        let plain = try #require(throws: JanssonCodecError.self) {
            try JanssonCodec.decode("{\"\\u0041\": 1,\n \"\\u0041x\": 2, }")
        }
        #expect(rewritten.code == .syntax)
        #expect(rewritten.line == plain.line)
        #expect(rewritten.column == plain.column)
        #expect(rewritten.position == plain.position)
    }

    @Test("raw NUL bytes are refused anywhere (jansson alone would drop one after a number or literal)")
    func rawNULBytes() {
        for text: [UInt8] in [
            [0x5B, 0x31, 0x00, 0x5D], [0x74, 0x72, 0x75, 0x65, 0x00], [0x31, 0x00], [0x22, 0x00, 0x22],
            [0x22, 0x5C, 0x00, 0x22],
        ] {
            let error = #expect(throws: JanssonCodecError.self) { try JanssonCodec.decode(text) }
            #expect(error?.code == .syntax)
            #expect(error?.message.contains("NUL") == true)
        }
    }

    @Test("invalid UTF-8 in keys, values and elsewhere is refused")
    func invalidUTF8() {
        for bytes: [UInt8] in [
            [0x22, 0xC3, 0x28, 0x22], [0x7B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x3A, 0x31, 0x7D], [0xFF],
        ] {
            let error = #expect(throws: JanssonCodecError.self) { try JanssonCodec.decode(bytes) }
            #expect(error?.code == .syntax)
        }
    }

    @Test("decoding accepts any collection of bytes")
    func inputForms() throws {
        let text = #"{"a":[1,2.5,"x"]}"#
        let expected: StoreValue = ["a": [1, 2.5, "x"]]
        #expect(try JanssonCodec.decode(text) == expected)
        #expect(try JanssonCodec.decode(Array(text.utf8)) == expected)
        #expect(try JanssonCodec.decode(text.utf8) == expected)
        #expect(try JanssonCodec.decode(ArraySlice(Array(" \(text) ".utf8))[1...]) == expected)
        #expect(try JanssonCodec.decode(text.utf8.lazy.map { $0 }) == expected)
        #expect(throws: JanssonCodecError.self) { try JanssonCodec.decode([UInt8]()) }
    }
}
