import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeGenerators
import KeyscopeTesting
import Testing

@Suite("jansson codec on the JSON vectors (fixtures/values)")
struct VectorTests {
    @Test("valid vector: decodes like the core, encodes to the canonical bytes", arguments: try ValueVectors.valid())
    func valid(_ vector: ValueVectors.Valid) throws {
        let value = try JanssonCodec.decode(Array(vector.json.utf8))
        #expect(value.typeName == vector.type)
        #expect(value == (try StoreValue(jsonText: vector.json)))

        let encoded = try JanssonCodec.encode(value)
        #expect(encoded == Array(vector.canonical.utf8))
        #expect(encoded == value.jsonBytes(sortedKeys: true))

        let reread = try JanssonCodec.decode(vector.canonical)
        #expect(reread == value)
        #expect(try JanssonCodec.encode(reread) == encoded)
    }

    @Test("invalid vector is rejected", arguments: try ValueVectors.invalid())
    func invalid(_ vector: ValueVectors.Invalid) {
        #expect(throws: StoreValueJSONError.self) { try StoreValue(jsonText: vector.json) }
        let error = #expect(throws: JanssonCodecError.self) { try JanssonCodec.decode(Array(vector.json.utf8)) }
        #expect(error?.message.isEmpty == false)
    }

    @Test("invalid UTF-8 is rejected, never replaced", arguments: try ValueVectors.invalidBytes())
    func invalidBytes(_ vector: ValueVectors.InvalidBytes) {
        #expect(String(validating: vector.bytes, as: UTF8.self) == nil, "the vector itself must not be UTF-8")
        #expect(throws: JanssonCodecError.self) { try JanssonCodec.decode(vector.bytes) }
    }

    @Test("equality of decoded values follows docs/store.md", arguments: try ValueVectors.equality())
    func equality(_ vector: ValueVectors.Equality) throws {
        let a = try JanssonCodec.decode(vector.a)
        let b = try JanssonCodec.decode(vector.b)
        #expect((a == b) == vector.equal)
        #expect(a == (try StoreValue(jsonText: vector.a)))
        #expect(b == (try StoreValue(jsonText: vector.b)))
        // Equal values have one canonical text; different ones have different texts.
        #expect((try JanssonCodec.encode(a) == JanssonCodec.encode(b)) == vector.equal)
    }

    @Test("syntax errors carry jansson's line, column, position and text")
    func syntaxErrorLocation() throws {
        let error = try #require(throws: JanssonCodecError.self) { try JanssonCodec.decode("{\"a\": 1,\n \"a\": 2}") }
        #expect(error.code == .syntax)
        #expect(error.line == 2)
        #expect(error.column != nil && error.position != nil)
        #expect(error.message.contains("duplicate object key"))
        #expect(error.description.hasPrefix("invalid JSON at line 2, column"))
    }

    @Test("value errors say what is wrong")
    func valueErrors() throws {
        let duplicate = try #require(throws: JanssonCodecError.self) { try JanssonCodec.decode(#"{"$a":1,"a":2}"#) }
        #expect(duplicate.code == .invalidValue)
        #expect(duplicate.message.contains("duplicate key \"a\""))
        let color = try #require(throws: JanssonCodecError.self) { try JanssonCodec.decode(#"[{"$color":"red"}]"#) }
        #expect(color.code == .invalidValue)
        #expect(color.message.contains("$color"))
        let integer = try #require(throws: JanssonCodecError.self) { try JanssonCodec.decode("9223372036854775808") }
        #expect(integer.code == .syntax)
        #expect(integer.message.contains("too big integer"))
        let real = try #require(throws: JanssonCodecError.self) { try JanssonCodec.decode("[1e400]") }
        #expect(real.message.contains("real number overflow"))
    }
}
