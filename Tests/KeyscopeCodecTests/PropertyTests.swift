import KeyscopeCodec
import KeyscopeCore
import KeyscopeGenerators
import PropertyBased
import Testing

/// The jansson codec against the core's codec on random values (generators in Generators.swift).
@Suite("jansson codec vs the core codec")
struct PropertyTests {
    @Test("jansson encode == core encode, byte for byte")
    func encodingsAgree() async {
        await propertyCheck(count: 1000, input: StoreGen.value()) { value throws in
            let jansson = try JanssonCodec.encode(value)
            let core = value.jsonBytes(sortedKeys: true)
            #expect(jansson == core, "\(ExactText.of(String(decoding: core, as: UTF8.self)))")
        }
    }

    @Test("jansson decode(core encode(v)) == v, compact and sorted")
    func janssonReadsTheCore() async {
        await propertyCheck(count: 1000, input: StoreGen.value()) { value throws in
            #expect(try JanssonCodec.decode(value.jsonBytes(sortedKeys: true)) == value)
            #expect(try JanssonCodec.decode(value.jsonBytes()) == value)
            #expect(try JanssonCodec.decode(value.jsonData(pretty: true)) == value)
        }
    }

    @Test("core decode(jansson encode(v)) == v")
    func coreReadsJansson() async {
        await propertyCheck(count: 1000, input: StoreGen.value()) { value throws in
            let decoded = try StoreValue(jsonBytes: JanssonCodec.encode(value))
            #expect(decoded == value)
            #expect(decoded.hashValue == value.hashValue)
        }
    }

    @Test("any valid spelling decodes to the value the core reads")
    func spellings() async {
        await propertyCheck(count: 1000, input: StoreGen.spelledValue()) { spelled throws in
            let decoded = try JanssonCodec.decode(spelled.text)
            #expect(decoded == spelled.value)
            #expect(decoded == (try StoreValue(jsonText: spelled.text)))
            #expect(try JanssonCodec.encode(decoded) == spelled.value.jsonBytes(sortedKeys: true))
        }
    }

    @Test("damaged texts: both codecs accept or both reject, with equal values")
    func damagedTexts() async {
        await propertyCheck(count: 3000, input: StoreGen.mangledJSON) { bytes in
            let core = Result { () throws(StoreValueJSONError) in try StoreValue(jsonBytes: bytes) }
            let jansson = Result { () throws(JanssonCodecError) in try JanssonCodec.decode(bytes) }
            switch (core, jansson) {
            case (.success(let a), .success(let b)):
                #expect(a == b)
            case (.failure, .failure):
                break
            case (.success, .failure(let error)):
                Issue.record("the core accepts \(bytes) but jansson refuses it: \(error)")
            case (.failure(let error), .success):
                Issue.record("jansson accepts \(bytes) but the core refuses it: \(error)")
            }
        }
    }

    @Test("deep random values agree too")
    func deepValues() async {
        await propertyCheck(count: 200, input: StoreGen.value(depth: 12, width: 2)) { value throws in
            #expect(try JanssonCodec.encode(value) == value.jsonBytes(sortedKeys: true))
            #expect(try JanssonCodec.decode(JanssonCodec.encode(value)) == value)
        }
    }
}
