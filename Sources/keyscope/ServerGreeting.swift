import KeyscopeClient
import KeyscopeCore

/// What a server says first on a new connection: its `hello` (name, read-only) and its first `snapshot`.
struct ServerGreeting: Sendable {
    /// The `hello` message; `null` when the server sent none before its snapshot.
    var hello: StoreValue = .null
    var snapshot: StoreValue

    /// The server's name from `hello` (`keyscope demo`, `keyscope replay`, an embedding service's).
    var serverName: String? { hello["server"]?["name"]?.stringValue }

    /// Whether the server refuses every write.
    var readOnly: Bool { hello["readOnly"]?.boolValue == true }

    /// The store ids of the snapshot, sorted.
    var storeIDs: [String] { KnownStores.ids(in: snapshot) }

    /// Why writes are refused, and what to do instead, for a read-only server.
    var readOnlyAdvice: String {
        if serverName == "keyscope replay" {
            return "this server is `keyscope replay --serve`, which shows a recording and refuses every write; "
                + "write to the live service instead (`--port N` picks a server)"
        }
        return "this server (\(serverName ?? "unnamed")) is read-only and refuses every write; restart it without "
            + "--read-only (`keyscope serve`) or without HubOptions(readOnly: true) (an embedding service)"
    }
}

extension InspectorClient {
    /// The `hello` and first `snapshot` messages; `nil` when the connection ends before a snapshot.
    func greeting() async throws -> ServerGreeting? {
        var hello: StoreValue = .null
        for try await message in messages {
            switch InspectorMessage(message) {
            case .hello(let value): hello = value
            case .snapshot(let value): return ServerGreeting(hello: hello, snapshot: value)
            default: continue
            }
        }
        return nil
    }
}
