import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import KeyscopeTunables

/// A test double of KeyscopeTunables: tunables in a real KeyValueStore, checked against a small schema.
///
/// ```swift
/// let tunables = try FakeTunables(registry: hub.registry, values: ["height": 48], schema: ["height": .integer(0...200)])
/// hub.tunablesFeature.endpoint = tunables
/// ```
final class FakeTunables: TunablesEndpoint {
    /// What a key accepts.
    enum Rule: Sendable {
        case integer(ClosedRange<Int64>)
        case number
        case string
        case color
        /// Any value.
        case any
    }

    let store: KeyValueStore
    let defaults: [String: StoreValue]
    let schema: [String: Rule]
    let required: Set<String>

    var storeID: StoreID { store.id }

    init(
        registry: StoreRegistry, values: [String: StoreValue], schema: [String: Rule], required: Set<String> = [],
        id: StoreID = StoreID(scope: .scenario(id: "tunables"), storage: .memory)
    ) throws {
        store = KeyValueStore(id: id, root: values)
        defaults = values
        self.schema = schema
        self.required = required
        try registry.register(store)
    }

    func currentValues() -> [String: StoreValue] { store.snapshot().objectValue ?? [:] }

    func validate(key: String, value: StoreValue) throws(HubError) {
        guard let rule = schema[key] else {
            throw HubError(
                code: .unknownKey,
                message: "no tunable \"\(key)\"; the tunables are \(schema.keys.sorted().joined(separator: ", "))")
        }
        switch (rule, value) {
        case (.any, _), (.number, .number), (.string, .string), (.color, .color): return
        case (.integer(let range), .integer(let integer)):
            guard range.contains(integer) else {
                throw HubError(code: .outOfRange, message: "\(key) must be in \(range), not \(integer)")
            }
        default:
            throw HubError(code: .typeMismatch, message: "\(key) takes \(rule), not \(value.typeName)")
        }
    }

    func validateReplacement(_ values: [String: StoreValue]) throws(HubError) {
        for key in values.keys.sorted() { try validate(key: key, value: values[key] ?? .null) }
        if let missing = required.subtracting(values.keys).sorted().first {
            throw .badRequest("the tunable \"\(missing)\" is required and cannot be left out")
        }
    }

    func validateRemoval(key: String) throws(HubError) {
        if required.contains(key) { throw .badRequest("the tunable \"\(key)\" is required and cannot be removed") }
    }

    func panelDescription() -> StoreValue {
        [
            "store": .string(storeID.description), "values": .object(currentValues()), "defaults": .object(defaults),
            "schema": .null,
        ]
    }
}
