import CHiredis

/// One connection to a Redis server through hiredis: connects, logs in (AUTH), selects the db, runs commands.
///
/// ```swift
/// let redis = try RedisConnection(url: RedisURL(parsing: "redis://127.0.0.1:6379/0"))
/// try redis.call(["SET", "greeting", "hello"])          // .status("OK")
/// try redis.call(["GET", "greeting"]).string             // "hello"
/// ```
/// **Not thread-safe** (a hiredis context is not): one thread or actor owns a connection and is the only one to use
/// it; a blocking reader (`XREAD BLOCK`) gets a connection of its own. After an I/O error the connection is closed
/// (``isOpen`` is false) and every later command fails with ``RedisError/Code/closed``: make a new one
/// (``RedisClient`` does that, with backoff).
public final class RedisConnection {
    /// The server, with credentials (never print it: its `description` has none).
    public let url: RedisURL
    private var context: UnsafeMutablePointer<redisContext>?

    /// Connects, sends AUTH when the URL has a password, and SELECT when its db is not 0.
    /// - Parameters:
    ///   - connectTimeout: how long connecting may take.
    ///   - commandTimeout: how long any one reply may take (a blocking command must block for less).
    /// - Throws: ``RedisError``: `connect` when the server cannot be reached, `auth` when it refuses the login,
    ///   `server` when SELECT is refused (a db beyond the server's `databases`).
    public init(url: RedisURL, connectTimeout: Duration = .seconds(2), commandTimeout: Duration = .seconds(5))
        throws(RedisError)
    {
        self.url = url
        guard let context = keyscope_redis_connect(url.host, Int32(url.port), Self.milliseconds(connectTimeout))
        else {
            throw RedisError(.connect, "could not allocate a connection to \(url) (out of memory)")
        }
        if keyscope_redis_err(context) != 0 {
            let reason = String(cString: keyscope_redis_errstr(context))
            redisFree(context)
            throw RedisError(
                .connect, "could not connect to \(url): \(reason); check that redis-server runs there and listens")
        }
        self.context = context
        _ = keyscope_redis_set_timeout(context, Self.milliseconds(commandTimeout))
        do {
            try login()
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Whether the connection can still run commands.
    public var isOpen: Bool { context != nil }

    /// Closes the connection (idempotent).
    public func close() {
        if let context {
            redisFree(context)
            self.context = nil
        }
    }

    /// Runs one command; an error reply is returned as ``RedisReply/error(_:)`` (the connection stays usable).
    /// - Throws: ``RedisError`` `io` when the connection broke or the reply timed out (the connection is then
    ///   closed), `closed` when it was closed before.
    public func send(_ arguments: [String]) throws(RedisError) -> RedisReply {
        try send(bytes: arguments.map { Array($0.utf8) })
    }

    /// ``send(_:)`` with binary-safe arguments.
    public func send(bytes arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        guard let context else {
            throw RedisError(.closed, "the connection to \(url) was closed; make a new connection")
        }
        guard !arguments.isEmpty else { throw RedisError(.unexpectedReply, "a command needs at least its name") }
        // One buffer holds every argument; hiredis gets pointers into it and the lengths (binary safe).
        var joined: [UInt8] = []
        joined.reserveCapacity(arguments.reduce(0) { $0 + $1.count })
        var offsets: [Int] = []
        for argument in arguments {
            offsets.append(joined.count)
            joined.append(contentsOf: argument)
        }
        let lengths = arguments.map(\.count)
        let raw: UnsafeMutableRawPointer? = joined.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!)
            var pointers: [UnsafePointer<CChar>?] = offsets.map {
                base.advanced(by: $0).assumingMemoryBound(to: CChar.self)
            }
            return pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { argvlen in
                    redisCommandArgv(context, Int32(arguments.count), argv.baseAddress, argvlen.baseAddress)
                }
            }
        }
        guard let raw else {
            let reason = String(cString: keyscope_redis_errstr(context))
            close()
            let shown = reason.contains("temporarily unavailable") ? "no reply in time (\(reason))" : reason
            throw RedisError(.io, "the connection to \(url) failed: \(shown); connect again")
        }
        defer { freeReplyObject(raw) }
        return Self.reply(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Runs one command and throws an error reply as ``RedisError/Code/server`` (`NOAUTH`/`WRONGPASS` as `auth`).
    @discardableResult
    public func call(_ arguments: [String]) throws(RedisError) -> RedisReply {
        try Self.checked(send(arguments), command: arguments.first ?? "", url: url)
    }

    /// ``call(_:)`` with binary-safe arguments.
    @discardableResult
    public func call(bytes arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        let name = arguments.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
        return try Self.checked(send(bytes: arguments), command: name, url: url)
    }

    /// Changes how long a reply may take (for a connection that runs blocking commands).
    public func setCommandTimeout(_ timeout: Duration) {
        if let context { _ = keyscope_redis_set_timeout(context, Self.milliseconds(timeout)) }
    }

    private func login() throws(RedisError) {
        if let password = url.password {
            let arguments = url.user.map { ["AUTH", $0, password] } ?? ["AUTH", password]
            if case .error(let message) = try send(arguments) {
                let who = url.user == nil ? "password" : "user or password"
                throw RedisError(
                    .auth,
                    "\(url) refused the \(who) (\(Self.firstWord(message))); check the credentials in the URL")
            }
        }
        if url.db != 0 {
            try call(["SELECT", String(url.db)])
        }
    }

    static func checked(_ reply: RedisReply, command: String, url: RedisURL) throws(RedisError) -> RedisReply {
        guard case .error(let message) = reply else { return reply }
        let word = firstWord(message)
        if word == "NOAUTH" || word == "WRONGPASS" || word == "NOPERM" {
            throw RedisError(
                .auth,
                "\(url) refused \(command.uppercased()): \(message); give a user and password in the URL "
                    + "(redis://user:password@host:port) that may run it")
        }
        throw RedisError(.server, "\(url) answered \(command.uppercased()) with an error: \(message)")
    }

    private static func firstWord(_ message: String) -> String {
        String(message.prefix { $0 != " " })
    }

    static func reply(_ pointer: UnsafeMutablePointer<redisReply>) -> RedisReply {
        let reply = pointer.pointee
        func text() -> String {
            guard let str = reply.str else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: str, count: reply.len), as: UTF8.self)
        }
        switch reply.type {
        case keyscope_redis_reply_status(): return .status(text())
        case keyscope_redis_reply_error(): return .error(text())
        case keyscope_redis_reply_integer(): return .integer(Int64(reply.integer))
        case keyscope_redis_reply_nil(): return .null
        case keyscope_redis_reply_string():
            guard let str = reply.str else { return .bulk([]) }
            return .bulk(Array(UnsafeRawBufferPointer(start: str, count: reply.len)))
        case keyscope_redis_reply_array():
            var items: [RedisReply] = []
            items.reserveCapacity(reply.elements)
            for index in 0..<reply.elements {
                if let element = reply.element[index] { items.append(Self.reply(element)) } else { items.append(.null) }
            }
            return .array(items)
        default:
            return .error("unknown reply type \(reply.type)")
        }
    }

    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}
