public import KeyscopeCore

/// The server's `reply` to one request: `{"type": "reply", "id": …, "ok": true, "result": …}` or
/// `{"type": "reply", "id": …, "ok": false, "error": {"code": "…", "message": "…"}}` (docs/protocol.md).
///
/// ```swift
/// let reply = try await client.send(request: ["type": "write", "store": "app/memory", "op": "set",
///                                             "path": "cart.total", "value": 100])
/// if let error = reply.error { print(error.code, error.message) } else { print(reply.result ?? .null) }
/// ```
public struct InspectorReply: Sendable, Hashable {
    /// A refusal: the protocol's error `code` (`unknown_store`, `bad_path`, `read_only`, …) and its message.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        public var code: String
        public var message: String

        public var description: String { "\(code): \(message)" }
    }

    /// The whole reply message as the server sent it.
    public var message: StoreValue

    public init(message: StoreValue) {
        self.message = message
    }

    /// The request id the reply echoes (`null` for a request that had none or could not be parsed).
    public var id: StoreValue { message["id"] ?? .null }

    /// Whether the request succeeded (`"ok": true`).
    public var ok: Bool { message["ok"]?.boolValue == true }

    /// `result` of a successful reply (`{"seq": N}` for writes).
    public var result: StoreValue? { ok ? message["result"] : nil }

    /// The refusal of an unsuccessful reply; a reply without a proper `error` object gets the code `unknown`.
    public var error: Failure? {
        guard !ok else { return nil }
        let error = message["error"]
        return Failure(
            code: error?["code"]?.stringValue ?? "unknown",
            message: error?["message"]?.stringValue ?? "the server gave no reason")
    }

    /// `result.seq` of a successful write: the change it made, or nil when nothing changed (or not a write).
    public var seq: Int64? { result?["seq"]?.integerValue }
}
