public import KeyscopeCore

/// A typed look at one server-to-client message (docs/protocol.md "WebSocket"), for code that switches on `type`.
///
/// ```swift
/// for try await value in client.messages {
///     switch InspectorMessage(value) {
///     case .snapshot(let snapshot): print(snapshot["seq"] ?? .null)
///     case .changes(let entries): entries.forEach { print($0["seq"] ?? .null) }
///     case .gap(let from, let to): print("missed \(from)…\(to)")
///     default: break
///     }
/// }
/// ```
/// The payloads stay `StoreValue`s exactly as sent: the protocol may add fields, and readers ignore what they do
/// not know.
public enum InspectorMessage: Sendable, Hashable {
    /// `{"type": "hello", "protocol": 1, "server": {…}, "readOnly": …}`.
    case hello(StoreValue)
    /// `{"type": "snapshot", "seq": N, "stores": […], "subscriptions": […]}`.
    case snapshot(StoreValue)
    /// The `entries` of `{"type": "changes", "entries": […]}`: log events as in docs/recording.md.
    case changes([StoreValue])
    /// `{"type": "gap", "from": A, "to": B}`: entries A…B were not sent; a snapshot follows.
    case gap(from: Int64, to: Int64)
    /// `{"type": "subscriptions", "list": […]}`.
    case subscriptions(StoreValue)
    /// `{"type": "reply", …}` that no pending request was waiting for.
    case reply(InspectorReply)
    /// Any other message (a type this client does not know, or a known type with missing fields).
    case other(StoreValue)

    /// Sorts `message` by its `type`.
    public init(_ message: StoreValue) {
        switch message["type"]?.stringValue {
        case "hello":
            self = .hello(message)
        case "snapshot":
            self = .snapshot(message)
        case "changes":
            guard let entries = message["entries"]?.arrayValue else {
                self = .other(message)
                return
            }
            self = .changes(entries)
        case "gap":
            guard let from = message["from"]?.integerValue, let to = message["to"]?.integerValue else {
                self = .other(message)
                return
            }
            self = .gap(from: from, to: to)
        case "subscriptions":
            self = .subscriptions(message)
        case "reply":
            self = .reply(InspectorReply(message: message))
        default:
            self = .other(message)
        }
    }
}
