public import KeyscopeCore
public import KeyscopeInspector

/// The inspector's view of the tunables: `GET /tune`, the checks before `PUT /tune/:key/:value`, `POST /tune` and
/// the `tune` request, and the dashboard's Tunables panel. The hub applies accepted writes to ``storeID`` itself,
/// and the file follows (every write to the store is saved).
extension Tunables: TunablesEndpoint {
    /// Every tunable, key → current value.
    public func currentValues() -> [String: StoreValue] {
        getAll()
    }

    /// Checks one write: `unknown_key` for a key that is not a tunable (not in the schema, the defaults or the
    /// current values), `type_mismatch` and `out_of_range` for the schema's rules; keys without a schema entry take
    /// any value.
    public func validate(key: String, value: StoreValue) throws(HubError) {
        do {
            try check(key: key, value: value)
        } catch {
            throw HubError(error)
        }
    }

    /// Checks a replacement of every tunable: each key known (`unknown_key`) and valid, and (`bad_request`) every
    /// key the schema requires present. Keys that the schema does not describe but the defaults or the current
    /// values have are allowed, with no checks.
    public func validateReplacement(_ values: [String: StoreValue]) throws(HubError) {
        do {
            try check(replacement: values)
        } catch {
            throw HubError(error)
        }
    }

    /// `{"store": id, "values": {…}, "defaults": {…}, "schema": {…} or null}`, the schema in its normalised form
    /// (``TunablesSchema/jsonValue``).
    public func panelDescription() -> StoreValue {
        .object([
            "store": .string(storeID.description),
            "values": .object(getAll()),
            "defaults": .object(defaults),
            "schema": schema?.jsonValue ?? .null,
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
