/// A failure of the Redis client: a code to branch on and a message that says what to do. Messages never hold
/// credentials (a server is named by its ``RedisURL/description``).
public struct RedisError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The URL does not parse.
        case badURL = "bad_url"
        /// The server could not be reached (refused, unknown host, connect timeout).
        case connect
        /// The connection broke or timed out during a command; the connection is closed and must be made again.
        case io
        /// AUTH was refused (wrong user or password) or the server wants one and none was given.
        case auth
        /// The server answered a command with an error reply (`-ERR …`, `-WRONGTYPE …`, `-NOSCRIPT …`).
        case server
        /// The reply was not what the caller expected (a protocol error, or a type the command cannot return).
        case unexpectedReply = "unexpected_reply"
        /// The connection was closed by the client and cannot be used any more.
        case closed
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Whether making the connection again may help (the server was unreachable, or the connection broke).
    public var isConnectionProblem: Bool { code == .connect || code == .io || code == .closed }

    public var description: String { "redis \(code.rawValue): \(message)" }
}
