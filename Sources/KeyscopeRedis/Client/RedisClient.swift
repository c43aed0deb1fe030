/// A connection that is made again when it breaks: each command connects first if needed.
///
/// Like ``RedisConnection`` it belongs to one thread or actor. A failed command is not retried (the caller decides,
/// since a command may have run before the connection broke); the next command reconnects.
/// ```swift
/// let client = RedisClient(url: url)
/// var backoff = RedisBackoff()
/// while true {
///     do { try client.call(["PING"]); backoff.reset(); break }
///     catch where error.isConnectionProblem { try await Task.sleep(for: backoff.nextDelay()) }
/// }
/// ```
public final class RedisClient {
    public let url: RedisURL
    public let connectTimeout: Duration
    public let commandTimeout: Duration
    private var connection: RedisConnection?

    public init(url: RedisURL, connectTimeout: Duration = .seconds(2), commandTimeout: Duration = .seconds(5)) {
        self.url = url
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
    }

    /// Whether a connection is open now (it may still break at the next command).
    public var isConnected: Bool { connection?.isOpen == true }

    /// The open connection, made (AUTH, SELECT) when there is none.
    public func connected() throws(RedisError) -> RedisConnection {
        if let connection, connection.isOpen { return connection }
        connection = nil
        let made = try RedisConnection(url: url, connectTimeout: connectTimeout, commandTimeout: commandTimeout)
        connection = made
        return made
    }

    /// Runs a command (see ``RedisConnection/call(_:)``), connecting first when needed.
    @discardableResult
    public func call(_ arguments: [String]) throws(RedisError) -> RedisReply {
        try run { connection throws(RedisError) in try connection.call(arguments) }
    }

    /// ``call(_:)`` with binary-safe arguments.
    @discardableResult
    public func call(bytes arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        try run { connection throws(RedisError) in try connection.call(bytes: arguments) }
    }

    /// Runs a command (see ``RedisConnection/send(_:)``): error replies are returned, not thrown.
    public func send(_ arguments: [String]) throws(RedisError) -> RedisReply {
        try run { connection throws(RedisError) in try connection.send(arguments) }
    }

    /// Drops the connection; the next command connects again.
    public func disconnect() {
        connection?.close()
        connection = nil
    }

    private func run(_ body: (RedisConnection) throws(RedisError) -> RedisReply) throws(RedisError) -> RedisReply {
        let connection = try connected()
        do {
            return try body(connection)
        } catch {
            if error.isConnectionProblem { disconnect() }
            throw error
        }
    }
}

extension Duration {
    /// The duration in seconds, for `Thread.sleep(forTimeInterval:)` and dispatch timeouts.
    var timeInterval: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
