import Foundation
public import KeyscopeCore
public import KeyscopeInspector
public import KeyscopeProtocol

/// The inspector's view of the tunables: `GET /tune`, the checks before `PUT /tune/:key/:value`, `POST /tune` and
/// the `tune` request, and the dashboard's Tunables panel. The hub applies accepted writes to ``storeID`` itself,
/// and the file follows (every write to the store is saved).
extension Tunables: TunablesEndpoint {
    /// Every tunable, key → current value.
    public func currentValues() -> [String: StoreValue] {
        getAll()
    }

    /// Checks one write (``TunablesRules``): `bad_request` for a key no file may hold, `unknown_key` for a new key
    /// a closed schema refuses, `type_mismatch` and `out_of_range` for the schema's rules; keys without a schema
    /// entry take any value, and new keys are created.
    public func validate(key: String, value: StoreValue) throws(HubError) {
        do {
            try rules.check(key: key, value: value)
        } catch {
            throw HubError(error)
        }
    }

    /// Checks a replacement of every tunable: each key as in ``validate(key:value:)``, and (`bad_request`) every
    /// key the schema requires present.
    public func validateReplacement(_ values: [String: StoreValue]) throws(HubError) {
        do {
            try rules.check(replacement: values)
        } catch {
            throw HubError(error)
        }
    }

    /// Checks a removal: `bad_request` for a key the schema requires.
    public func validateRemoval(key: String) throws(HubError) {
        do {
            try rules.check(removalOf: key)
        } catch {
            throw HubError(error)
        }
    }

    /// Types a value from `PUT /tune/:key/:value` by the key's schema type, or (without one) by the type of its
    /// current value, else its default: `#ff8800` for a color, `https://…` for a URL, `true`/`false` for a bool, an
    /// integer for a number. A text that does not read as that type is left a string, for ``validate(key:value:)``
    /// to refuse with a message that says what the key takes.
    public func interpretPathValue(_ value: StoreValue, forKey key: String) -> StoreValue {
        let type = schema?.entries[key]?.type ?? TunablesSchema.ValueType(of: get(key) ?? defaults[key])
        switch (type, value) {
        case (.color?, .string(let text)): return StoreColor(text).map(StoreValue.color) ?? value
        case (.url?, .string(let text)):
            guard let url = URL(string: text), url.scheme != nil else { return value }
            return .url(url)
        case (.bool?, .string("true")): return .bool(true)
        case (.bool?, .string("false")): return .bool(false)
        case (.number?, .integer(let integer)): return .number(Double(integer))
        default: return value
        }
    }

    /// `{"store": id, "values": {…}, "defaults": {…}, "schema": {…} or null, "additionalKeys": bool}`, the schema
    /// in its normalised form (``TunablesSchema/jsonValue``); `additionalKeys` is whether new keys may be created
    /// (`false` under a closed schema).
    public func panelDescription() -> StoreValue {
        .object([
            "store": .string(storeID.description),
            "values": .object(getAll()),
            "defaults": .object(defaults),
            "schema": schema?.jsonValue ?? .null,
            "additionalKeys": .bool(schema?.additionalKeys ?? true),
        ])
    }
}

extension HubError {
    /// The wire form of a tunables refusal: the codes the protocol shares are kept, a missing required key is
    /// `bad_request`.
    init(_ error: TunablesError) {
        let code: HubError.Code
        switch error.code {
        case .unknownKey: code = .unknownKey
        case .typeMismatch: code = .typeMismatch
        case .outOfRange: code = .outOfRange
        default: code = .badRequest
        }
        self.init(code: code, message: error.message)
    }
}

extension TunablesSchema.ValueType {
    /// The type a value has, for a tunable the schema does not describe (`nil` for null, arrays and objects).
    init?(of value: StoreValue?) {
        switch value {
        case .integer?: self = .integer
        case .number?: self = .number
        case .string?: self = .string
        case .bool?: self = .bool
        case .color?: self = .color
        case .url?: self = .url
        default: return nil
        }
    }
}
