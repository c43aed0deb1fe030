import ArgumentParser
import KeyscopeCore

/// The `op` of a write request (docs/protocol.md): the docs/store.md operations.
enum WriteOperation: String, CaseIterable, ExpressibleByArgument, Sendable {
    case set, insert, remove, merge
}

/// What `keyscope write STORE PATH [VALUE]` sends: `{"type": "write", "store", "op", "path", "value"}`.
///
/// ```swift
/// let request = try WriteRequest(store: "app/memory", path: "cart.total", value: "100", op: .set, asString: false)
/// request.message   // {"op":"set","path":"cart.total","store":"app/memory","type":"write","value":100}
/// ```
/// VALUE is JSON text (`100`, `true`, `"text"` in quotes, `{"a":1}`, `{"$color":"#FF8800"}`), or with
/// `--string` a raw string taken as it is. `remove` takes no VALUE; every other op needs one.
struct WriteRequest: Sendable, Equatable {
    var store: String
    var path: String
    var op: WriteOperation
    /// nil for `remove`.
    var value: StoreValue?

    init(store: String, path: String, value: String?, op: WriteOperation, asString: Bool) throws(CommandFailure) {
        self.store = store
        self.path = path
        self.op = op
        self.value = try Self.parseValue(value, op: op, asString: asString)
    }

    /// The request object (the client adds the `id`).
    var message: StoreValue {
        var fields: [String: StoreValue] = [
            "type": "write", "store": .string(store), "op": .string(op.rawValue), "path": .string(path),
        ]
        if let value { fields["value"] = value }
        return .object(fields)
    }

    /// VALUE as a StoreValue: JSON text, or the raw text with `asString`; nil for `remove`.
    static func parseValue(_ text: String?, op: WriteOperation, asString: Bool) throws(CommandFailure) -> StoreValue? {
        guard op != .remove else {
            if let text { throw CommandFailure("--op remove takes no VALUE; got \(quoted(text)).") }
            if asString { throw CommandFailure("--string needs a VALUE; --op remove takes none.") }
            return nil
        }
        guard let text else {
            throw CommandFailure(
                "--op \(op.rawValue) needs a VALUE: JSON such as 100, true, '\"text\"' or '{\"a\":1}', "
                    + "or any text with --string.")
        }
        if asString { return .string(text) }
        do {
            return try StoreValue(jsonText: text)
        } catch {
            throw CommandFailure("VALUE \(quoted(text)) is not valid JSON (\(error)). " + jsonAdvice(text))
        }
    }

    /// What to do about VALUE text that is not JSON. Text that is meant as JSON (it starts like an object, an array
    /// or a string) needs mending; a bare word is shown as the JSON string it would be, in shell quotes, when
    /// that quoting works as written.
    static func jsonAdvice(_ text: String) -> String {
        let string = "or pass --string to send the text as a string as it is."
        let trimmed = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        if let first = trimmed.first, "{[\"".contains(first) {
            return "Check the JSON (closing quotes, brackets and braces; keys in double quotes), " + string
        }
        let json = quoted(text)
        guard !json.contains("'") else { return "Write a string as JSON in double quotes, " + string }
        return "A string needs its JSON quotes inside shell quotes: '\(json)', " + string
    }

    private static func quoted(_ text: String) -> String {
        StoreValue.string(text).jsonText()
    }
}
