import Foundation
import KeyscopeCore
import KeyscopeGenerators
import KeyscopeTesting
import Testing

@Suite("JSON vectors (fixtures/values)")
struct ValueVectorTests {
    @Test("valid vector decodes, has its type and prints canonically", arguments: try ValueVectors.valid())
    func valid(_ vector: ValueVectors.Valid) throws {
        let value = try StoreValue(jsonText: vector.json)
        #expect(value.typeName == vector.type)

        let canonical = value.jsonText(sortedKeys: true)
        #expect(ExactText.of(canonical) == ExactText.of(vector.canonical))
        #expect(value.jsonBytes(sortedKeys: true) == Array(vector.canonical.utf8))

        let reread = try StoreValue(jsonText: vector.canonical)
        #expect(reread == value)
        #expect(reread.hashValue == value.hashValue)
        #expect(ExactText.of(reread.jsonText(sortedKeys: true)) == ExactText.of(vector.canonical))

        // The other forms and entry points agree.
        let all = ValueVectors.decodeAll(Array(vector.json.utf8))
        #expect(all.data == .success(value))
        #expect(all.bytes == .success(value))
        #expect(try StoreValue(jsonText: value.jsonText()) == value)
        #expect(try StoreValue(jsonData: value.jsonData()) == value)
        #expect(try StoreValue(jsonData: value.jsonData(pretty: true)) == value)
    }

    @Test("invalid vector is rejected", arguments: try ValueVectors.invalid())
    func invalid(_ vector: ValueVectors.Invalid) {
        #expect(throws: StoreValueJSONError.self) { try StoreValue(jsonText: vector.json) }
        let all = ValueVectors.decodeAll(Array(vector.json.utf8))
        #expect(all.text == all.data, "jsonText and jsonData disagree")
        #expect(all.bytes == all.data, "jsonBytes and jsonData disagree")
    }

    @Test("invalid UTF-8 is rejected", arguments: try ValueVectors.invalidBytes())
    func invalidBytes(_ vector: ValueVectors.InvalidBytes) {
        #expect(String(validating: vector.bytes, as: UTF8.self) == nil, "the vector itself must not be UTF-8")
        #expect(throws: StoreValueJSONError.self) { try StoreValue(jsonData: Data(vector.bytes)) }
        let all = ValueVectors.decodeAll(vector.bytes)
        #expect(all.bytes == all.data, "jsonBytes and jsonData disagree")
    }

    @Test("equality and hashing follow docs/store.md", arguments: try ValueVectors.equality())
    func equality(_ vector: ValueVectors.Equality) throws {
        let a = try StoreValue(jsonText: vector.a)
        let b = try StoreValue(jsonText: vector.b)
        #expect((a == b) == vector.equal)
        #expect((b == a) == vector.equal)
        #expect(a == a && b == b)
        #expect(Set([a, b]).count == (vector.equal ? 1 : 2))
        if vector.equal { #expect(a.hashValue == b.hashValue) }
    }

    @Test("distinct canonical texts are distinct values, equal ones hash alike")
    func canonicalFormsMatchValueIdentity() throws {
        var values: [StoreValue] = []
        var canonicals = Set<[UInt8]>()
        for vector in try ValueVectors.valid() {
            values.append(try StoreValue(jsonText: vector.json))
            values.append(try StoreValue(jsonText: vector.canonical))
            canonicals.insert(Array(vector.canonical.utf8))
        }
        #expect(Set(values).count == canonicals.count)
    }

    @Test(
        "every fixture file is itself strict StoreValue JSON",
        arguments: [
            "values/valid.json", "values/invalid.json", "values/invalid-bytes.json", "values/equality.json",
            "values/keypaths.json",
        ])
    func fixtureFilesAreStrictJSON(_ path: String) throws {
        let value = try Fixtures.json(path)
        #expect(value.typeName == "array" || value.typeName == "object")
    }

    @Test("Fixtures finds the package's fixtures folder")
    func fixturesRoot() throws {
        #expect(FileManager.default.fileExists(atPath: Fixtures.url("values/README.md").path))
        #expect(Fixtures.url("values/valid.json").lastPathComponent == "valid.json")
    }
}

extension ValueVectorTests {
    /// Equality of constructed values (docs/store.md "Equality"); nested so the `ValueVectorTests` filter runs it.
    @Suite("StoreValue equality (docs/store.md)")
    struct Equality {
        @Test("integer 3 and number 3.0 differ")
        func integerIsNotNumber() {
            #expect(StoreValue.integer(3) != .number(3.0))
            #expect(Set<StoreValue>([.integer(3), .number(3.0)]).count == 2)
            #expect(StoreValue.integer(0) != .number(0.0))
        }

        @Test("every NaN equals every NaN and they hash alike")
        func nanEqualsNaN() {
            let nans: [StoreValue] = [
                .number(.nan), .number(-.nan), .number(.signalingNaN), .number(Double(nan: 0x1234, signaling: false)),
                .number(Double(bitPattern: 0x7FF0_0000_0000_0001)), .number(Double(bitPattern: 0xFFFF_FFFF_FFFF_FFFF)),
            ]
            for a in nans {
                for b in nans { #expect(a == b) }
            }
            #expect(Set(nans).count == 1)
            #expect(Set<StoreValue>([.array([.number(.nan)]), .array([.number(-.signalingNaN)])]).count == 1)
            #expect(StoreValue.number(.nan) != .number(.infinity))
        }

        @Test("0.0 and -0.0 differ")
        func signedZeros() {
            #expect(StoreValue.number(0.0) != .number(-0.0))
            #expect(Set<StoreValue>([.number(0.0), .number(-0.0)]).count == 2)
            #expect(StoreValue.number(-0.0) == .number(-0.0))
            #expect(StoreValue.object(["a": .number(0.0)]) != .object(["a": .number(-0.0)]))
        }

        @Test("numbers compare by value")
        func numbersByValue() {
            #expect(StoreValue.number(0.1 + 0.2) == .number(0.30000000000000004))
            #expect(StoreValue.number(1e300) == .number(1e300))
            #expect(StoreValue.number(1) != .number(1.0000000000000002))
        }

        @Test("object key order does not matter")
        func keyOrder() throws {
            let keys = (0..<64).map { "key\($0)" }
            var forward: [String: StoreValue] = [:]
            for (i, key) in keys.enumerated() { forward[key] = .integer(Int64(i)) }
            var backward: [String: StoreValue] = [:]
            for (i, key) in keys.enumerated().reversed() { backward[key] = .integer(Int64(i)) }
            #expect(StoreValue.object(forward) == .object(backward))
            #expect(Set([StoreValue.object(forward), .object(backward)]).count == 1)
            let text = try StoreValue(jsonText: #"{"b":1,"a":{"y":[1,2],"x":null}}"#)
            #expect(text == ["a": ["x": nil, "y": [1, 2]], "b": 1])
        }

        @Test("colors compare as exact strings, case kept")
        func colors() throws {
            let lower = try #require(StoreColor("#ff8800"))
            let upper = try #require(StoreColor("#FF8800"))
            #expect(StoreValue.color(lower) != .color(upper))
            #expect(Set<StoreValue>([.color(lower), .color(upper)]).count == 2)
            #expect(StoreValue.color(StoreColor(red: 0xFF, green: 0x88, blue: 0x00)) == .color(upper))
            #expect(StoreValue.color(try #require(StoreColor("#FF8800FF"))) != .color(upper))
            #expect(StoreValue.color(upper) != .string("#FF8800"))
        }

        @Test("urls compare as exact absolute strings")
        func urls() throws {
            let bare = try #require(URL(string: "https://example.com"))
            let slash = try #require(URL(string: "https://example.com/"))
            #expect(StoreValue.url(bare) != .url(slash))
            let base = try #require(URL(string: "https://example.com/dir/"))
            let relative = try #require(URL(string: "x?q=1", relativeTo: base))
            let absolute = try #require(URL(string: "https://example.com/dir/x?q=1"))
            #expect(StoreValue.url(relative) == .url(absolute))
            #expect(Set<StoreValue>([.url(relative), .url(absolute)]).count == 1)
            #expect(StoreValue.url(absolute) != .string("https://example.com/dir/x?q=1"))
        }

        @Test("different cases never compare equal")
        func casesDiffer() throws {
            let samples: [StoreValue] = [
                .string(""), .number(0), .integer(0), .bool(false), .null, .array([]), .object([:]),
                .color(try #require(StoreColor("#000000"))), .url(try #require(URL(string: "https://example.com/"))),
            ]
            #expect(Set(samples).count == samples.count)
            for (i, a) in samples.enumerated() {
                for (j, b) in samples.enumerated() { #expect((a == b) == (i == j)) }
            }
        }
    }
}
