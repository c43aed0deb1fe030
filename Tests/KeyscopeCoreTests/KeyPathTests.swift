import Foundation
import KeyscopeCore
import KeyscopeGenerators
import KeyscopeTesting
import Testing

/// The key-path vectors of `fixtures/values/keypaths.json` (see its README).
enum KeyPathVectors {
    struct Segment: Codable, Sendable {
        let key: String?
        let index: Int?

        var segment: StoreKeyPath.Segment? {
            switch (key, index) {
            case (let key?, nil): .key(key)
            case (nil, let index?): .index(index)
            default: nil
            }
        }
    }

    struct Valid: Codable, Sendable, CustomTestStringConvertible {
        let path: String
        let segments: [Segment]
        let canonical: String
        var testDescription: String { ExactText.of(path) }
    }

    struct Invalid: Codable, Sendable, CustomTestStringConvertible {
        let path: String
        let column: Int
        let reason: String
        var testDescription: String { ExactText.of(path) + " (column \(column))" }
    }

    struct File: Codable, Sendable {
        let valid: [Valid]
        let invalid: [Invalid]
    }

    static func file() throws -> File {
        try JSONDecoder().decode(File.self, from: Fixtures.data("values/keypaths.json"))
    }
}

@Suite("Key paths (fixtures/values/keypaths.json)")
struct KeyPathTests {
    @Test("valid path parses to its segments and prints canonically", arguments: try KeyPathVectors.file().valid)
    func valid(_ vector: KeyPathVectors.Valid) throws {
        let expected = try #require(vector.segments.map(\.segment) as? [StoreKeyPath.Segment])
        let path = try StoreKeyPath(parsing: vector.path)
        #expect(ExactText.of(path.segments) == ExactText.of(expected))
        #expect(path.segments == expected)
        #expect(ExactText.of(path.description) == ExactText.of(vector.canonical))

        let reparsed = try StoreKeyPath(parsing: vector.canonical)
        #expect(ExactText.of(reparsed.segments) == ExactText.of(expected))
        #expect(ExactText.of(reparsed.description) == ExactText.of(vector.canonical))
        #expect(ExactText.of(StoreKeyPath(segments: expected).description) == ExactText.of(vector.canonical))

        let json = JSONBuffer.withScratch { buffer in
            path.appendJSONString(to: &buffer)
            return buffer.bytes
        }
        #expect(json == StoreValue.string(vector.canonical).jsonBytes(), "the path as a JSON string, written directly")

        let literal = StoreKeyPath(stringLiteral: vector.path)
        #expect(literal.parseError == nil)
        #expect(literal == path)
        #expect(literal.isRoot == expected.isEmpty)
    }

    @Test("invalid path throws with exactly its column", arguments: try KeyPathVectors.file().invalid)
    func invalid(_ vector: KeyPathVectors.Invalid) {
        let error = #expect(throws: KeyPathParseError.self) { try StoreKeyPath(parsing: vector.path) }
        #expect(error?.column == vector.column, "\(error?.reason ?? "no error")")
        #expect(error?.path == vector.path)

        let literal = StoreKeyPath(stringLiteral: vector.path)
        #expect(literal.parseError?.column == vector.column)
        #expect(!literal.isRoot)
        #expect(literal.description == vector.path)
    }

    @Test("columns count Unicode scalars, not UTF-16 units or bytes")
    func columnsCountScalars() {
        // "😀" is one scalar (two UTF-16 units, four bytes), "é" one scalar; "e\u{301}" two scalars, one Character.
        #expect(column("😀.é..x") == 5)
        #expect(column("e\u{301}..x") == 4)
        #expect(column("😀[x]") == 3)
    }

    @Test("canonical form from segments")
    func canonicalFromSegments() {
        let cases: [([StoreKeyPath.Segment], String)] = [
            ([], ""),
            ([.key("a"), .key("b")], "a.b"),
            ([.index(0)], "[0]"),
            ([.key("")], #"[""]"#),
            ([.index(3), .key("x")], "[3].x"),
            ([.key("a.b")], #"["a.b"]"#),
            ([.key("a"), .key("x y")], #"a["x y"]"#),
            ([.key("q\"\\")], #"["q\"\\"]"#),
            ([.key("\u{0}\u{1F}\u{7F}\u{9F}")], #"["\u0000\u001f\u007f\u009f"]"#),
            ([.key("\n\r\t\u{8}\u{C}")], #"["\n\r\t\b\f"]"#),
            ([.key("/é😀")], "/é😀"),
            ([.key("a"), .key("\u{A0}")], "a[\"\u{A0}\"]"),
            ([.key("$x"), .key("2024")], "$x.2024"),
            ([.key("a"), .index(Int(Int64.max))], "a[9223372036854775807]"),
            // The ASCII fast path's edges: a backslash is a name character that JSON must escape; `!` and `~`
            // bound the plain range; DEL is a control; a name may mix ASCII and other scalars.
            ([.key("a"), .key("b\\c")], "a.b\\c"),
            ([.key("!~"), .key("~!")], "!~.~!"),
            ([.index(1), .key("x\u{7F}")], #"[1]["x\u007f"]"#),
            ([.key("ab"), .key("cé")], "ab.cé"),
        ]
        for (segments, canonical) in cases {
            #expect(ExactText.of(StoreKeyPath(segments: segments).description) == ExactText.of(canonical))
            let json = JSONBuffer.withScratch { buffer in
                StoreKeyPath(segments: segments).appendJSONString(to: &buffer)
                return buffer.bytes
            }
            #expect(json == StoreValue.string(canonical).jsonBytes(), "\(canonical.debugDescription) as a JSON string")
        }
    }

    @Test("root, parent, prefixes")
    func structure() throws {
        #expect(StoreKeyPath.root.isRoot)
        #expect(try StoreKeyPath(parsing: "") == .root)
        let path = try StoreKeyPath(parsing: "a[2].b")
        #expect(path.parent == (try StoreKeyPath(parsing: "a[2]")))
        #expect(path.last == .key("b"))
        #expect((try StoreKeyPath(parsing: "a")).isPrefix(of: path))
        #expect(!(try StoreKeyPath(parsing: "a[1]")).isPrefix(of: path))
        #expect(StoreKeyPath.root.appending(key: "a").appending(index: 2).appending(key: "b") == path)
    }

    private func column(_ text: String) -> Int? {
        do {
            _ = try StoreKeyPath(parsing: text)
            return nil
        } catch {
            return error.column
        }
    }
}
