import Foundation
import KeyscopeCore
import KeyscopeTunables
import Testing

extension TunablesTests {
    /// The schema: each rule, refused writes that change nothing, and schemas that are themselves wrong.
    @Suite struct SchemaTests {
        static let schema: StoreValue = [
            "height": ["type": "integer", "min": 24, "max": 120, "step": 4, "group": "Layout"],
            "ratio": ["type": "number", "min": 0, "max": 1, "step": 0.1, "description": "Share of the width"],
            "mode": ["type": "string", "options": ["fast", "safe"]],
            "beta": ["type": "bool"],
            "accent": ["type": "color", "options": [.color(StoreColor("#FF8800")!), .color(StoreColor("#000000")!)]],
            "home": ["type": "url", "required": false],
            "level": ["type": "number", "options": [1, 2.5]],
        ]
        static let defaults: StoreValue = [
            "height": 44, "ratio": 0.5, "mode": "fast", "beta": false, "accent": .color(StoreColor("#FF8800")!),
            "level": 1.0, "free": "anything",
        ]

        func open() throws -> (Sandbox, Tunables) {
            let sandbox = try Sandbox(defaults: Self.defaults, schema: Self.schema)
            return (sandbox, try sandbox.open())
        }

        @Test(
            arguments: [
                ("height", StoreValue.integer(48), nil),
                ("height", .number(48.0), TunablesError.Code.typeMismatch),
                ("height", "48", .typeMismatch),
                ("height", 20, .outOfRange),
                ("height", 124, .outOfRange),
                ("height", 46, .outOfRange),
                ("height", 120, nil),
                ("ratio", 1, nil),
                ("ratio", 0.3, nil),
                ("ratio", 0.35, .outOfRange),
                ("ratio", 1.5, .outOfRange),
                ("ratio", -0.1, .outOfRange),
                ("ratio", .number(.nan), .outOfRange),
                ("ratio", true, .typeMismatch),
                ("mode", "safe", nil),
                ("mode", "turbo", .outOfRange),
                ("mode", 1, .typeMismatch),
                ("beta", true, nil),
                ("beta", "true", .typeMismatch),
                ("accent", .color(StoreColor("#ff8800")!), nil),
                ("accent", .color(StoreColor("#123456")!), .outOfRange),
                ("accent", "#FF8800", .typeMismatch),
                ("home", .url(URL(string: "https://example.com")!), nil),
                ("home", "https://example.com", .typeMismatch),
                ("level", 2.5, nil),
                ("level", 2, .outOfRange),
                ("level", 1, nil),
                ("free", ["any": ["shape"]], nil),
            ] as [(String, StoreValue, TunablesError.Code?)])
        func eachRule(key: String, value: StoreValue, expected: TunablesError.Code?) throws {
            let (sandbox, t) = try open()
            let before = t.getAll()
            try t.flush()
            let onDisk = try Data(contentsOf: sandbox.fileURL)
            do {
                try t.set(key, value)
                #expect(expected == nil, "\(key) = \(value) should have been refused: \(String(describing: expected))")
                #expect(t.get(key) == value)
            } catch {
                #expect(error.code == expected, "\(error)")
                #expect(error.key == key)
                #expect(error.message.hasPrefix("\(key): "), "the message names the key: \(error.message)")
                #expect(t.getAll() == before, "a refused write changes nothing in memory")
                try t.flush()
                #expect(try Data(contentsOf: sandbox.fileURL) == onDisk, "nor on disk")
            }
        }

        @Test func messagesSayWhatIsAllowed() throws {
            let (_, t) = try open()
            let range = #expect(throws: TunablesError.self) { try t.set("height", 130) }
            #expect(range?.message == "height: 130 is above the maximum 120 (allowed: 24 to 120 in steps of 4)")
            let step = #expect(throws: TunablesError.self) { try t.set("height", 46) }
            #expect(step?.message == "height: 46 is not on a step of 4 from 24 (allowed: 24 to 120 in steps of 4)")
            let fraction = #expect(throws: TunablesError.self) { try t.set("ratio", 0.35) }
            #expect(
                fraction?.message
                    == "ratio: 0.35 is not on a step of 0.1 from 0.0 (allowed: 0.0 to 1.0 in steps of 0.1)")
            let option = #expect(throws: TunablesError.self) { try t.set("mode", "turbo") }
            #expect(option?.message == #"mode: "turbo" is not one of the options (allowed: one of "fast", "safe")"#)
            let type = #expect(throws: TunablesError.self) { try t.set("beta", "yes") }
            #expect(type?.message == #"beta: expects true or false, got string "yes""#)
        }

        @Test func setAllRefusesTheWholeBatchWhenOneValueIsWrong() throws {
            let (_, t) = try open()
            let before = t.getAll()
            #expect(throws: TunablesError.self) { try t.setAll(["height": 48, "mode": "turbo"]) }
            #expect(t.getAll() == before)
        }

        @Test func theSchemaBesideTheDefaultsIsFoundAndDefaultsThatBreakItAreRefused() throws {
            let (_, t) = try open()
            #expect(t.schema?.entries.count == 7)

            let sandbox = try Sandbox(defaults: ["height": 10], schema: ["height": ["type": "integer", "min": 24]])
            let error = #expect(throws: TunablesError.self) { try sandbox.open() }
            #expect(error?.code == .badFile)
            #expect(error?.message.contains("height: 10 is below the minimum 24") == true)
        }

        @Test func aRequiredKeyMissingFromTheDefaultsIsRefused() throws {
            let sandbox = try Sandbox(defaults: ["a": 1], schema: ["a": ["type": "integer"], "b": ["type": "string"]])
            let error = #expect(throws: TunablesError.self) { try sandbox.open() }
            #expect(error?.code == .badFile)
            #expect(error?.message.contains(#""b" is required"#) == true)
        }

        @Test func anExplicitSchemaURLMustExist() throws {
            let sandbox = try Sandbox(defaults: ["a": 1])
            let missing = sandbox.root.appendingPathComponent("nope.schema.json")
            let error = #expect(throws: TunablesError.self) { try sandbox.open(schemaURL: missing) }
            #expect(error?.code == .missingFile)
            #expect(try sandbox.open().schema == nil, "without a schema file there is no schema")
        }

        @Test(arguments: [
            (#"{"a": {"type": "number""#, "does not parse"),
            (#"[1]"#, "must be a JSON object"),
            (#"{"a": 1}"#, "must be an object"),
            (#"{"a": {}}"#, "\"type\" is missing"),
            (#"{"a": {"type": "float"}}"#, "\"type\" must be one of number, integer, string, bool, color, url"),
            (#"{"a": {"type": "number", "maximum": 3}}"#, "unknown field \"maximum\""),
            (#"{"a": {"type": "string", "min": 1}}"#, "applies to number and integer tunables only"),
            (#"{"a": {"type": "integer", "min": 1.5}}"#, "must be an integer"),
            (#"{"a": {"type": "number", "max": "3"}}"#, "must be a finite number"),
            (#"{"a": {"type": "number", "min": 3, "max": 1}}"#, "is above \"max\""),
            (#"{"a": {"type": "number", "step": 0}}"#, "\"step\" must be above 0"),
            (#"{"a": {"type": "string", "options": []}}"#, "\"options\" is empty"),
            (#"{"a": {"type": "string", "options": "x"}}"#, "must be an array"),
            (#"{"a": {"type": "string", "options": ["x", 1]}}"#, "option 1 breaks"),
            (#"{"a": {"type": "integer", "max": 5, "options": [1, 9]}}"#, "option 9 breaks"),
            (#"{"a": {"type": "bool", "required": "yes"}}"#, "must be true or false"),
            (#"{"a": {"type": "bool", "group": 3}}"#, "\"group\" must be a string"),
        ])
        func malformedSchemasAreRefusedAtLoad(text: String, expected: String) throws {
            let sandbox = try Sandbox(defaults: ["a": true])
            try Data(text.utf8).write(to: sandbox.schemaURL)
            let error = #expect(throws: TunablesError.self) { try sandbox.open() }
            #expect(error?.code == .badSchema)
            #expect(error?.message.contains(sandbox.schemaURL.path) == true)
            #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
            #expect(!FileManager.default.fileExists(atPath: sandbox.fileURL.path), "nothing was copied")
        }

        @Test func theNormalisedFormHasTypesRequiredAndNumbersOfTheEntrysType() throws {
            let (_, t) = try open()
            let json = try #require(t.schema?.jsonValue)
            #expect(
                json["ratio"] == [
                    "type": "number", "min": 0.0, "max": 1.0, "step": 0.1, "required": true,
                    "description": "Share of the width",
                ])
            #expect(
                json["height"] == [
                    "type": "integer", "min": 24, "max": 120, "step": 4, "required": true,
                    "group": "Layout",
                ])
            #expect(json["level"]?["options"] == [1.0, 2.5])
            #expect(json["home"] == ["type": "url", "required": false])
            // The normalised form reads back as the same schema.
            #expect(try TunablesSchema(jsonData: json.jsonData()) == t.schema)
        }

        @Test func integerStepsAreExactEvenAtTheEdgesOfInt64() throws {
            let entry = TunablesSchema.Entry(type: .integer, min: .integer(.min), step: .integer(.max))
            let schema = try TunablesSchema(entries: ["n": entry])
            try schema.check(key: "n", value: .integer(.min))
            try schema.check(key: "n", value: .integer(-1))  // min + max
            #expect(throws: TunablesError.self) { try schema.check(key: "n", value: .integer(0)) }
            #expect(throws: TunablesError.self) { try schema.check(key: "n", value: .integer(.max)) }
        }
    }
}
