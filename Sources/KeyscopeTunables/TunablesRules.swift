import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol

/// The checks every change to the tunables passes, whoever makes it: this library's writes, the inspector's
/// clients (through ``Tunables``' `TunablesEndpoint` conformance), an edit of the file, and the files at open.
///
/// - The key must fit the file and the URL form (``TunePath/keyProblem(_:)``): ``TunablesError/Code/badKey``.
/// - The tunables are an open JSON object: any such key may be created. A closed schema (`"additionalKeys": false`)
///   admits only the keys it or the defaults list: ``TunablesError/Code/unknownKey`` for the others.
/// - Keys the schema lists keep all its checks (type, range, step, options; required keys in a whole set).
struct TunablesRules: Sendable {
    /// The schema, when there is one.
    let schema: TunablesSchema?
    /// The bundled defaults: their keys are admitted even by a closed schema.
    let defaults: [String: StoreValue]

    /// Whether `key` may exist: always, unless the schema is closed and neither it nor the defaults list the key.
    func admits(_ key: String) -> Bool {
        guard let schema, !schema.additionalKeys else { return true }
        return schema.entries[key] != nil || defaults[key] != nil
    }

    /// The checks one write passes: the key's form, a key the schema admits, then the schema's rules for the value.
    func check(key: String, value: StoreValue) throws(TunablesError) {
        try checkKey(key)
        try schema?.check(key: key, value: value)
    }

    /// The checks a whole new set of values passes: every key as in ``check(key:value:)``, and no key the schema
    /// requires left out.
    func check(replacement values: [String: StoreValue]) throws(TunablesError) {
        for key in values.keys.sorted() { try checkKey(key) }
        try schema?.check(values: values)
    }

    /// The checks a removal passes: the key is not one the schema requires.
    func check(removalOf key: String) throws(TunablesError) {
        guard schema?.entries[key]?.required == true else { return }
        throw TunablesError(
            code: .missingKey,
            message: "\(key): the schema requires this tunable, so it cannot be removed; set another value, or mark "
                + "the entry \"required\": false",
            key: key)
    }

    private func checkKey(_ key: String) throws(TunablesError) {
        if let problem = TunePath.keyProblem(key) { throw .badKey(key, problem) }
        guard admits(key) else { throw .closedSchema(key) }
    }
}
