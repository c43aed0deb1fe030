import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import KeyscopeTunables
import Testing

extension TunablesTests {
    /// The inspector's view: validation codes and the panel's description.
    @Suite struct EndpointTests {
        func open(schema: StoreValue? = SchemaTests.schema) throws -> (Sandbox, any TunablesEndpoint) {
            let sandbox = try Sandbox(defaults: SchemaTests.defaults, schema: schema)
            return (sandbox, try sandbox.open())
        }

        /// The code of the HubError `body` throws, `nil` when it throws none.
        func code(_ body: () throws -> Void) -> HubError.Code? {
            do {
                try body()
                return nil
            } catch let error as HubError {
                #expect(!error.message.isEmpty)
                return error.code
            } catch {
                Issue.record("expected a HubError, got \(error)")
                return nil
            }
        }

        @Test func validateGivesTheProtocolsCodes() throws {
            let (_, endpoint) = try open()
            #expect(code { try endpoint.validate(key: "height", value: 48) } == nil)
            #expect(code { try endpoint.validate(key: "nope", value: 1) } == nil, "an open schema admits new keys")
            #expect(code { try endpoint.validate(key: "a/b", value: 1) } == .badRequest)
            #expect(code { try endpoint.validate(key: "height", value: "48") } == .typeMismatch)
            #expect(code { try endpoint.validate(key: "height", value: 500) } == .outOfRange)
            #expect(code { try endpoint.validate(key: "height", value: 25) } == .outOfRange)
            #expect(code { try endpoint.validate(key: "mode", value: "turbo") } == .outOfRange)
            #expect(code { try endpoint.validate(key: "free", value: [1, 2]) } == nil, "no schema entry: no checks")
            #expect(endpoint.currentValues() == SchemaTests.defaults.objectValue)
        }

        @Test func pathValuesAreTypedByTheSchemaOrTheCurrentValue() throws {
            let (_, endpoint) = try open()
            #expect(endpoint.interpretPathValue("#000000", forKey: "accent") == .color(StoreColor("#000000")!))
            #expect(endpoint.interpretPathValue("#zz", forKey: "accent") == "#zz", "left for validate to refuse")
            #expect(endpoint.interpretPathValue("true", forKey: "beta") == true)
            #expect(endpoint.interpretPathValue("yes", forKey: "beta") == "yes")
            let home = URL(string: "https://x.example/a")!
            #expect(endpoint.interpretPathValue("https://x.example/a", forKey: "home") == .url(home))
            #expect(endpoint.interpretPathValue("relative/path", forKey: "home") == "relative/path")
            #expect(endpoint.interpretPathValue(1, forKey: "ratio") == .number(1))
            #expect(endpoint.interpretPathValue(48, forKey: "height") == 48, "an integer tunable keeps integers")
            #expect(endpoint.interpretPathValue("true", forKey: "free") == "true", "a string tunable keeps strings")
            #expect(endpoint.interpretPathValue("#000000", forKey: "nope") == "#000000")
            let typed = endpoint.interpretPathValue("#zz", forKey: "accent")
            #expect(code { try endpoint.validate(key: "accent", value: typed) } == .typeMismatch)
        }

        @Test func validateReplacementChecksEveryKeyAndTheRequiredOnes() throws {
            let (_, endpoint) = try open()
            var values = try #require(SchemaTests.defaults.objectValue)
            #expect(code { try endpoint.validateReplacement(values) } == nil)
            values["home"] = nil  // not required
            values["free"] = nil  // not in the schema
            #expect(code { try endpoint.validateReplacement(values) } == nil)
            values["height"] = nil
            #expect(code { try endpoint.validateReplacement(values) } == .badRequest)
            values["height"] = 999
            #expect(code { try endpoint.validateReplacement(values) } == .outOfRange)
            values["height"] = 48
            values["new_key"] = 1
            #expect(code { try endpoint.validateReplacement(values) } == nil, "an open schema admits new keys")
            values["bad\u{7}key"] = 1
            #expect(code { try endpoint.validateReplacement(values) } == .badRequest)
        }

        @Test func validationAloneChangesNothing() throws {
            let (sandbox, endpoint) = try open()
            let log = ChangeLog(sandbox.registry)
            try endpoint.validate(key: "height", value: 48)
            #expect(endpoint.currentValues()["height"] == 44)
            #expect(log.all.isEmpty, "the hub, not the endpoint, applies accepted writes")
        }

        @Test func thePanelDescriptionHasStoreValuesDefaultsAndSchema() throws {
            let (sandbox, endpoint) = try open()
            let tunables = try #require(endpoint as? Tunables)
            try tunables.set("height", 48)
            let panel = endpoint.panelDescription()
            #expect(
                panel.objectValue.map { Set($0.keys) } == ["store", "values", "defaults", "schema", "additionalKeys"])
            #expect(panel["additionalKeys"] == true)
            #expect(panel["store"] == .string("app/file:\(sandbox.fileURL.path)"))
            #expect(panel["values"]?["height"] == 48)
            #expect(panel["defaults"] == SchemaTests.defaults)
            #expect(panel["schema"] == tunables.schema?.jsonValue)
            #expect(panel["schema"]?["height"]?["max"] == 120)
            // It is JSON per docs/store.md: it survives a round trip.
            #expect(try StoreValue(jsonData: panel.jsonData()) == panel)

            let (_, plain) = try open(schema: nil)
            #expect(plain.panelDescription()["schema"] == .null)
        }

        @Test func theStoreIDIsTheStoreInTheRegistry() throws {
            let (sandbox, endpoint) = try open()
            #expect(sandbox.registry.store(endpoint.storeID) != nil)
            #expect(endpoint.storeID.scope == .app)
            #expect(endpoint.storeID.storage.description == "file:\(sandbox.fileURL.path)")
        }
    }
}
