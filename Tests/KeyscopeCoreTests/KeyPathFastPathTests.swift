import Dispatch
import Foundation
import KeyscopeGenerators
import KeyscopeTesting
import PropertyBased
import Synchronization
import Testing

@testable import KeyscopeCore

/// The key-path parser's ASCII fast path and the per-thread cache of parsed paths: both must give exactly what the
/// scalar parser gives (docs/store.md "Key paths"), segments and errors alike.
@Suite("Key-path fast path and cache")
struct KeyPathFastPathTests {
    /// Short texts over the bytes the grammar turns on (names, dots, brackets, digits, quotes, escapes, a space, a
    /// control, DEL, a non-ASCII scalar), so that every way a path can start, continue, end and fail comes up.
    static let grammarTexts = Generator<String, Shrink.None<String>> { rng in
        let pieces = [
            "a", "b", "cart", "total", "$x", "-", "\\", ".", "[", "]", "\"", "0", "1", "9", "00", "01", "12",
            "123456789012345678", "9223372036854775807", "9223372036854775808", " ", "\u{7}", "\u{7F}", "é", "\\u0041",
        ]
        var text = ""
        for _ in 0..<Int.random(in: 0...8, using: &rng) {
            text += pieces[Int.random(in: 0..<pieces.count, using: &rng)]
        }
        return text
    }

    /// The fast path agrees with the scalar parser wherever it answers, and leaves every error to it.
    private func expectFastPathAgrees(_ text: String) {
        let fast = KeyPathParser.parseASCII(text)
        switch Result(catching: { () throws(KeyPathParseError) in try KeyPathParser.parseScalars(text) }) {
        case .success(let segments):
            if let fast { #expect(ExactText.of(fast) == ExactText.of(segments), "\(ExactText.of(text))") }
        case .failure(let error):
            #expect(fast == nil, "the fast path accepted \(ExactText.of(text)), which fails: \(error)")
        }
    }

    @Test("the fast path gives the scalar parser's segments or leaves the text to it (grammar pieces)")
    func fastPathOnGrammarPieces() async {
        await propertyCheck(count: 5000, input: Self.grammarTexts) { text in expectFastPathAgrees(text) }
    }

    @Test("the fast path gives the scalar parser's segments or leaves the text to it (spelled and damaged paths)")
    func fastPathOnGeneratedPaths() async {
        await propertyCheck(count: 2000, input: StoreGen.spelledKeyPath) { spelled in
            expectFastPathAgrees(spelled.text)
        }
        await propertyCheck(count: 2000, input: StoreGen.mangledKeyPath) { text in expectFastPathAgrees(text) }
    }

    @Test(
        "the fast path answers the common spellings itself",
        arguments: [
            ("", [StoreKeyPath.Segment]()),
            ("cart.total", [.key("cart"), .key("total")]),
            ("items[3].title", [.key("items"), .index(3), .key("title")]),
            ("[0][10]", [.index(0), .index(10)]),
            (#"prefs["com.app.theme"].x"#, [.key("prefs"), .key("com.app.theme"), .key("x")]),
            (#"a[""]"#, [.key("a"), .key("")]),
            ("$x.b\\c.2024", [.key("$x"), .key("b\\c"), .key("2024")]),
            ("a[123456789012345678]", [.key("a"), .index(123_456_789_012_345_678)]),
        ])
    func fastPathCommonSpellings(_ text: String, _ expected: [StoreKeyPath.Segment]) throws {
        let fast = try #require(KeyPathParser.parseASCII(text), "\(text) went to the scalar parser")
        #expect(fast == expected)
        #expect(try KeyPathParser.parseScalars(text) == expected)
    }

    @Test(
        "the fast path leaves escapes, controls, long indexes and other scalars to the scalar parser",
        arguments: [
            #"a["\u0041"]"#, #"a["x\"y"]"#, "a[\"\u{7F}\"]", "a[9223372036854775807]", "é.x", "a.é", "a[01]", "a..b",
            ".a",
            "a[", "a[1", "a b",
        ])
    func fastPathGivesUp(_ text: String) {
        #expect(KeyPathParser.parseASCII(text) == nil)
        expectFastPathAgrees(text)
    }

    @Test("every fixture vector: the fast path agrees, and invalid ones are left to the scalar parser")
    func fastPathOnFixtures() throws {
        let file = try KeyPathVectors.file()
        for vector in file.valid { expectFastPathAgrees(vector.path) }
        for vector in file.invalid {
            #expect(KeyPathParser.parseASCII(vector.path) == nil, "\(ExactText.of(vector.path))")
        }
    }

    // MARK: The cache

    @Test("a path parsed again, after many others took its slots, still parses to the same segments")
    func cacheGivesWhatParsingGives() throws {
        var rng = SplitMix64(seed: 27)
        let texts = (0..<3000).map { _ in
            StoreGen.KeyPathSpeller.spell(StoreGen.randomKeyPath(using: &rng).segments, using: &rng)
        }
        // Three passes in different orders: the first fills the slots, the others hit, miss and evict.
        for pass in 0..<3 {
            let order = pass == 1 ? Array(texts.indices.reversed()) : Array(texts.indices)
            for index in order {
                let text = texts[index]
                let parsed = try StoreKeyPath(parsing: text)
                #expect(ExactText.of(parsed.segments) == ExactText.of(try KeyPathParser.parseUncached(text)))
            }
        }
        // A hot path between them.
        for _ in 0..<3 {
            #expect(
                try StoreKeyPath(parsing: "items[3].title").segments == [
                    .key("items"), .index(3), .key("title"),
                ])
        }
    }

    @Test("a path that does not parse is refused every time, with its column (errors are not cached)")
    func cacheKeepsNoErrors() {
        for _ in 0..<3 {
            let error = #expect(throws: KeyPathParseError.self) { try StoreKeyPath(parsing: "items[01].title") }
            #expect(error?.column == 8)
            #expect(StoreKeyPath(stringLiteral: "items[01].title").parseError?.column == 8)
        }
    }

    @Test("threads parsing the same paths at once each get the right segments (one cache per thread)")
    func cacheAcrossThreads() throws {
        let texts = (0..<600).map { "items[\($0 % 300)].\($0 < 300 ? "title" : "price")" }
        let expected = try texts.map { try KeyPathParser.parseUncached($0) }
        let mismatches = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<20 {
                for index in texts.indices {
                    let index = (index * (worker + 1) + round) % texts.count
                    if (try? StoreKeyPath(parsing: texts[index]).segments) != expected[index] {
                        mismatches.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
    }
}
