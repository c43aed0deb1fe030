import Foundation
import KeyscopeCore
import KeyscopeGenerators
import PropertyBased
import Testing

/// Round-trip properties of docs/store.md over random values and key paths (generators in Generators.swift).
@Suite("Value and key-path properties")
struct ValuePropertyTests {
    // MARK: JSON

    @Test("decode(encode(v)) == v, compact")
    func roundTripCompact() async {
        await propertyCheck(count: 1000, input: StoreGen.value()) { value throws in
            #expect(try StoreValue(jsonText: value.jsonText()) == value)
        }
    }

    @Test("decode(encode(v)) == v, sorted keys")
    func roundTripSorted() async {
        await propertyCheck(count: 1000, input: StoreGen.value()) { value throws in
            let decoded = try StoreValue(jsonText: value.jsonText(sortedKeys: true))
            #expect(decoded == value)
            #expect(decoded.hashValue == value.hashValue)
        }
    }

    @Test("decode(encode(v)) == v, pretty")
    func roundTripPretty() async {
        await propertyCheck(count: 1000, input: StoreGen.value()) { value throws in
            #expect(try StoreValue(jsonData: value.jsonData(pretty: true)) == value)
        }
    }

    @Test("the canonical text is a fixed point of encode(decode(_))")
    func canonicalFixedPoint() async {
        await propertyCheck(count: 1000, input: StoreGen.value()) { value throws in
            let canonical = value.jsonText(sortedKeys: true)
            let again = try StoreValue(jsonText: canonical).jsonText(sortedKeys: true)
            #expect(ExactText.of(again) == ExactText.of(canonical))
            let fromCompact = try StoreValue(jsonText: value.jsonText()).jsonText(sortedKeys: true)
            #expect(ExactText.of(fromCompact) == ExactText.of(canonical))
            let fromPretty = try StoreValue(jsonData: value.jsonData(pretty: true)).jsonText(sortedKeys: true)
            #expect(ExactText.of(fromPretty) == ExactText.of(canonical))
        }
    }

    @Test("any valid spelling decodes to the value, and re-encoding reaches the canonical fixed point")
    func spellingsDecode() async {
        await propertyCheck(count: 1000, input: StoreGen.spelledValue()) { spelled throws in
            let decoded = try StoreValue(jsonText: spelled.text)
            #expect(decoded == spelled.value)
            #expect(decoded.hashValue == spelled.value.hashValue)
            let once = decoded.jsonText(sortedKeys: true)
            #expect(ExactText.of(once) == ExactText.of(spelled.value.jsonText(sortedKeys: true)))
            let twice = try StoreValue(jsonText: once).jsonText(sortedKeys: true)
            #expect(ExactText.of(twice) == ExactText.of(once))
        }
    }

    @Test("jsonData, jsonText and jsonBytes agree on valid texts")
    func entryPointsAgreeOnValidText() async {
        await propertyCheck(count: 1000, input: StoreGen.spelledValue()) { spelled throws in
            let all = ValueVectors.decodeAll(Array(spelled.text.utf8))
            #expect(all.data == .success(spelled.value))
            #expect(all.bytes == .success(spelled.value))
            #expect(all.text == .success(spelled.value))
        }
    }

    @Test("jsonData, jsonText and jsonBytes agree on damaged texts, value or error")
    func entryPointsAgreeOnDamagedText() async {
        await propertyCheck(count: 1500, input: StoreGen.mangledJSON) { bytes throws in
            let all = ValueVectors.decodeAll(bytes)
            #expect(all.bytes == all.data)
            if let text = all.text { #expect(text == all.data) }
            // Whatever was accepted round-trips like any other value.
            if case .success(let value) = all.data {
                #expect(try StoreValue(jsonText: value.jsonText(sortedKeys: true)) == value)
            }
        }
    }

    // MARK: Key paths

    @Test("parse(canonical(p)) == p")
    func keyPathRoundTrip() async {
        await propertyCheck(count: 2000, input: StoreGen.keyPath) { path throws in
            let canonical = path.description
            let parsed = try StoreKeyPath(parsing: canonical)
            #expect(ExactText.of(parsed.segments) == ExactText.of(path.segments))
            #expect(parsed == path)
        }
    }

    @Test("canonical(parse(canonical(p))) == canonical(p)")
    func keyPathCanonicalFixedPoint() async {
        await propertyCheck(count: 2000, input: StoreGen.keyPath) { path throws in
            let canonical = path.description
            #expect(ExactText.of(try StoreKeyPath(parsing: canonical).description) == ExactText.of(canonical))
        }
    }

    @Test("any valid spelling of a path parses to it and prints canonically")
    func keyPathSpellings() async {
        await propertyCheck(count: 2000, input: StoreGen.spelledKeyPath) { spelled throws in
            let parsed = try StoreKeyPath(parsing: spelled.text)
            #expect(ExactText.of(parsed.segments) == ExactText.of(spelled.path.segments))
            #expect(ExactText.of(parsed.description) == ExactText.of(spelled.path.description))
        }
    }

    @Test("damaged paths either parse and round-trip, or fail at a column inside or one past the text")
    func damagedKeyPaths() async {
        await propertyCheck(count: 2000, input: StoreGen.mangledKeyPath) { text throws in
            switch Result(catching: { () throws(KeyPathParseError) in try StoreKeyPath(parsing: text) }) {
            case .success(let parsed):
                let reparsed = try StoreKeyPath(parsing: parsed.description)
                #expect(ExactText.of(reparsed.segments) == ExactText.of(parsed.segments))
            case .failure(let error):
                #expect((1...text.unicodeScalars.count + 1).contains(error.column), "\(error)")
                #expect(error.path == text)
            }
        }
    }
}
