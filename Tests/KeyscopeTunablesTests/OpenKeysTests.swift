import Foundation
import InMemoryLogging
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import KeyscopeTunables
import Testing

extension TunablesTests {
    /// The tunables are an open JSON object: new keys are created, removed keys fall back to their defaults, and a
    /// closed schema (`"additionalKeys": false`) brings back the refusal of unknown keys.
    @Suite struct OpenKeysTests {
        static let closedSchema: StoreValue = [
            "additionalKeys": false,
            "height": ["type": "integer", "min": 24, "max": 120],
        ]

        @Test func newKeysAreCreatedLoggedAndSaved() throws {
            let sandbox = try Sandbox(defaults: ["a": 1])
            let t = try sandbox.open()
            let log = ChangeLog(sandbox.registry)
            try t.set("new_delay", 2.5)
            try t.setAll(["a": 2, "banner": "Hello"])
            #expect(t.getAll() == ["a": 2, "new_delay": 2.5, "banner": "Hello"])
            #expect(log.all.count == 2, "each write is one change")
            #expect(log.all[0].patches.map(\.keyPath) == [StoreKeyPath(segments: [.key("new_delay")])])
            #expect(log.all[0].patches.first?.oldValue == nil)
            try t.flush()
            #expect(try sandbox.fileValue() == ["a": 2, "new_delay": 2.5, "banner": "Hello"])
        }

        @Test func aSchemaStillChecksTheKeysItListsAndNotTheOthers() throws {
            let sandbox = try Sandbox(defaults: SchemaTests.defaults, schema: SchemaTests.schema)
            let t = try sandbox.open()
            try t.set("brand_new", [1, 2])
            #expect(t.get("brand_new") == [1, 2])
            let error = #expect(throws: TunablesError.self) { try t.set("height", 500) }
            #expect(error?.code == .outOfRange)
            #expect(t.get("height") == 44)
        }

        @Test func replaceAllAddsAndRemovesKeysAndReadsFallBackToTheDefaults() throws {
            let sandbox = try Sandbox(defaults: ["a": 1, "b": "x"])
            let t = try sandbox.open()
            try t.set("extra", true)
            try t.replaceAll(["b": "y", "fresh": 3])
            #expect(t.getAll() == ["b": "y", "fresh": 3])
            #expect(t.get("a") == 1, "a removed key reads as its bundled default")
            #expect(t.int("a", default: 0) == 1)
            #expect(t.get("extra") == nil, "no default: gone")
            #expect(t.bool("extra", default: false) == false)
            try t.flush()
            #expect(try sandbox.fileValue() == ["b": "y", "fresh": 3])
        }

        @Test func removeTakesAKeyOutAndRefusesRequiredOnes() throws {
            let sandbox = try Sandbox(
                defaults: ["a": 1, "b": 2],
                schema: ["b": ["type": "integer"], "c": ["type": "integer", "required": false]])
            let t = try sandbox.open()
            try t.set("c", 3)
            try t.remove("a")
            #expect(t.getAll() == ["b": 2, "c": 3])
            #expect(t.get("a") == 1)
            let required = #expect(throws: TunablesError.self) { try t.remove("b") }
            #expect(required?.code == .missingKey)
            #expect(required?.message.contains("required") == true)
            #expect(t.getAll() == ["b": 2, "c": 3])
        }

        @Test(arguments: ["", "a/b", "tab\there", "nul\u{0}", "c1\u{85}", String(repeating: "k", count: 257)])
        func keysNoFileCouldHoldAreRefused(key: String) throws {
            let sandbox = try Sandbox(defaults: ["a": 1])
            let t = try sandbox.open()
            let error = #expect(throws: TunablesError.self) { try t.set(key, 1) }
            #expect(error?.code == .badKey)
            #expect(throws: TunablesError.self) { try t.replaceAll(["a": 1, key: 1]) }
            #expect(t.getAll() == ["a": 1])
            #expect(HubError.Code.badRequest == code { try (t as any TunablesEndpoint).validate(key: key, value: 1) })
        }

        @Test(arguments: [("c1\u{85}", #""c1\u{85}""#), ("del\u{7F}", #""del\u{7F}""#), ("tab\t", #""tab\t""#)])
        func aControlCharacterIsShownAsAnEscapeInTheMessage(key: String, shown: String) throws {
            let sandbox = try Sandbox(defaults: ["a": 1])
            let t = try sandbox.open()
            let message = #expect(throws: TunablesError.self) { try t.set(key, 1) }?.message ?? ""
            #expect(message.contains("the key \(shown) holds a control character"), "\(message)")
            #expect(!message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        }

        @Test func aKeyOf256BytesIsAllowed() throws {
            let sandbox = try Sandbox(defaults: ["a": 1])
            let t = try sandbox.open()
            let key = String(repeating: "é", count: 128)
            try t.set(key, 1)
            #expect(t.get(key) == 1)
        }

        @Test func aClosedSchemaRefusesKeysNeitherItNorTheDefaultsList() throws {
            let sandbox = try Sandbox(defaults: ["height": 44, "free": "x"], schema: Self.closedSchema)
            let t = try sandbox.open()
            #expect(t.schema?.additionalKeys == false)
            #expect(t.schema?.entries.keys.sorted() == ["height"], "additionalKeys is a setting, not an entry")
            try t.set("free", "y")
            let error = #expect(throws: TunablesError.self) { try t.set("typo", 1) }
            #expect(error?.code == .unknownKey)
            #expect(error?.key == "typo")
            #expect(error?.message.contains("add it to the defaults file") == true)
            #expect(throws: TunablesError.self) { try t.replaceAll(["height": 48, "free": "x", "typo": 1]) }
            #expect(t.getAll() == ["height": 44, "free": "y"])
            let endpoint: any TunablesEndpoint = t
            #expect(endpoint.panelDescription()["additionalKeys"] == false)
            #expect(code { try endpoint.validate(key: "typo", value: 1) } == .unknownKey)
        }

        @Test func aClosedSchemaRefusesACopyWithAnUnlistedKeyAtOpen() throws {
            let sandbox = try Sandbox(defaults: ["height": 44], schema: Self.closedSchema)
            try write(["height": 44, "typo": 1], to: sandbox.fileURL)
            let error = #expect(throws: TunablesError.self) { try sandbox.open() }
            #expect(error?.code == .badFile)
            #expect(error?.message.contains("typo") == true)
            #expect(try sandbox.fileValue() == ["height": 44, "typo": 1], "the copy is left as it is")
        }

        @Test func additionalKeysMustBeABool() throws {
            let error = #expect(throws: TunablesError.self) {
                try TunablesSchema(jsonData: Data(#"{"additionalKeys": "no"}"#.utf8))
            }
            #expect(error?.code == .badSchema)
            #expect(error?.message.contains("true or false") == true)
            // An object is the entry of a tunable that happens to have this name.
            let named = try TunablesSchema(jsonData: Data(#"{"additionalKeys": {"type": "bool"}}"#.utf8))
            #expect(named.entries["additionalKeys"]?.type == .bool)
            #expect(named.additionalKeys)
        }

        @Test func aFileEditThatAddsAndRemovesKeysIsApplied() throws {
            let sandbox = try Sandbox(defaults: ["a": 1, "b": 2])
            let t = try sandbox.open(watching: .polling(interval: .milliseconds(20)))
            defer { t.stop() }
            try writeByRename(#"{"a": 5, "added": "yes"}"#, to: sandbox.fileURL)
            #expect(eventually { t.getAll() == ["a": 5, "added": "yes"] })
            #expect(t.get("b") == 2, "a key the edit removed reads as its default")
        }

        @Test func aFileEditWithABadKeyIsRefusedAndTheLastGoodValuesStay() throws {
            let sandbox = try Sandbox(defaults: ["a": 1])
            let t = try sandbox.open(watching: .polling(interval: .milliseconds(20)))
            defer { t.stop() }
            try writeByRename(#"{"a": 5, "x/y": 1}"#, to: sandbox.fileURL)
            #expect(eventually { !sandbox.errorLines.isEmpty })
            #expect(t.getAll() == ["a": 1])
            #expect(sandbox.errorLines.contains { $0.metadata["error"].map { "\($0)".contains("x/y") } == true })
        }

        /// The code of the HubError `body` throws, `nil` when it throws none.
        func code(_ body: () throws -> Void) -> HubError.Code? {
            do {
                try body()
                return nil
            } catch let error as HubError {
                return error.code
            } catch {
                Issue.record("expected a HubError, got \(error)")
                return nil
            }
        }
    }
}
