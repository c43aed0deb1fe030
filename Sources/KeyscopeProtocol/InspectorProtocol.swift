public import KeyscopeCore

/// Constants of the inspector's wire protocol (docs/protocol.md) shared by the server, the client and the CLI.
public enum InspectorProtocol {
    /// The protocol number sent in `hello` and `/api/health`.
    public static let version = 1
    /// The WebSocket subprotocol.
    public static let subprotocol = "keyscope.v1"
    /// The WebSocket endpoint.
    public static let webSocketPath = "/ws"
    /// The release of this package (the one place it is written down): `hello`'s `server.version` and
    /// `keyscope --version`.
    public static let packageVersion = "0.1.0"

    /// The `result` of a request that changes state: `{"seq": N}`, the seq of the change it made, or `{"seq": null}`
    /// when nothing changed.
    public static func seqResult(_ seq: Int?) -> StoreValue {
        .object(["seq": seq.map { .integer(Int64($0)) } ?? .null])
    }
}
