import KeyscopeCore

/// Redacts the values of secret stores (`app/secrets:<service>`) before anything of an instance reaches Redis: a
/// service that reveals secrets to its own inspector never reveals them to the fleet (docs/fleet.md "Security").
///
/// Every scalar becomes the placeholder its own inspector shows when it does not reveal, `"•••• (N)"` with N the
/// bytes of a string (of the JSON text for other scalars); a placeholder stays as it is, so redacting twice changes
/// nothing and a service that already redacts publishes exactly what its inspector shows.
enum SecretRedaction {
    /// Whether values of the store are secrets.
    static func isSecret(_ id: StoreID) -> Bool {
        if case .secrets = id.storage { return true }
        return false
    }

    static func redact(_ value: StoreValue) -> StoreValue {
        switch value {
        case .object(let members): .object(members.mapValues(redact))
        case .array(let items): .array(items.map(redact))
        case .string(let text): isPlaceholder(text) ? value : placeholder(text.utf8.count)
        case .null: value
        default: placeholder(value.jsonBytes().count)
        }
    }

    /// A log line of a secret store with its `patches`' `old` and `new` (and a `registered` event's `root`) redacted;
    /// the line as it was when it cannot be read (it came from the hub's own encoder, so that does not happen).
    static func redactLine(_ line: [UInt8]) -> [UInt8] {
        guard let value = try? StoreValue(jsonBytes: line), var object = value.objectValue else { return line }
        if let root = object["root"] { object["root"] = redact(root) }
        if case .array(let patches)? = object["patches"] {
            object["patches"] = .array(
                patches.map { patch in
                    guard var members = patch.objectValue else { return patch }
                    for key in ["old", "new"] { if let found = members[key] { members[key] = redact(found) } }
                    return .object(members)
                })
        }
        return StoreValue.object(object).jsonBytes(sortedKeys: true)
    }

    private static func placeholder(_ length: Int) -> StoreValue { .string("•••• (\(length))") }

    private static func isPlaceholder(_ text: String) -> Bool {
        guard text.hasPrefix("•••• ("), text.hasSuffix(")") else { return false }
        let inner = text.dropFirst("•••• (".count).dropLast()
        return !inner.isEmpty && inner.allSatisfy(\.isASCII) && inner.allSatisfy(\.isNumber)
    }
}
