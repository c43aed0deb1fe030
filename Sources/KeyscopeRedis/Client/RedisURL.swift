import Foundation

/// Where a Redis server is and how to log in: `redis://[user:password@]host:port[/db]`.
///
/// ```swift
/// let url = try RedisURL(parsing: "redis://app:s3cret@127.0.0.1:6379/2")
/// print(url)   // redis://127.0.0.1:6379/2 (credentials are never part of the description)
/// ```
/// `redis://:password@host:port` gives a password only (AUTH password); a missing port is 6379, a missing db 0.
/// User and password may be percent-encoded (`%40` for `@`).
public struct RedisURL: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var db: Int
    public var user: String?
    public var password: String?

    public init(host: String, port: Int = 6379, db: Int = 0, user: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.db = db
        self.user = user
        self.password = password
    }

    /// Parses `text`; the error names what was wrong, never the password.
    public init(parsing text: String) throws(RedisError) {
        let scheme = "redis://"
        guard text.hasPrefix(scheme) else {
            throw RedisError(.badURL, "a Redis URL starts with redis:// (redis://[user:password@]host:port[/db])")
        }
        var rest = Substring(text.dropFirst(scheme.count))
        var user: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                let name = String(credentials[..<colon])
                user = name.isEmpty ? nil : try Self.decode(name, "user")
                password = try Self.decode(String(credentials[credentials.index(after: colon)...]), "password")
            } else {
                // `redis://secret@host` is the password alone, as redis-cli reads it.
                password = try Self.decode(String(credentials), "password")
            }
        }
        var db = 0
        if let slash = rest.firstIndex(of: "/") {
            let dbText = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if !dbText.isEmpty {
                guard let number = Int(dbText), number >= 0 else {
                    throw RedisError(.badURL, "the database after / must be a number 0 or more, not \"\(dbText)\"")
                }
                db = number
            }
        }
        var host = String(rest)
        var port = 6379
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            // [::1]:6379
            let after = host[host.index(after: close)...]
            let inner = String(host[host.index(after: host.startIndex)..<close])
            if after.hasPrefix(":") { port = try Self.port(String(after.dropFirst())) }
            host = inner
        } else if let colon = host.lastIndex(of: ":") {
            port = try Self.port(String(host[host.index(after: colon)...]))
            host = String(host[..<colon])
        }
        guard !host.isEmpty else { throw RedisError(.badURL, "the Redis URL has no host (redis://host:port)") }
        self.init(host: host, port: port, db: db, user: user, password: password)
    }

    /// `redis://host:port/db`: safe to print, log or send to a client.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "redis://\(shownHost):\(port)/\(db)"
    }

    private static func port(_ text: String) throws(RedisError) -> Int {
        guard let port = Int(text), (1...65535).contains(port) else {
            throw RedisError(.badURL, "the port must be a number from 1 to 65535, not \"\(text)\"")
        }
        return port
    }

    private static func decode(_ text: String, _ what: String) throws(RedisError) -> String {
        guard let decoded = text.removingPercentEncoding else {
            throw RedisError(.badURL, "the \(what) in the Redis URL has a bad percent escape; write % as %25")
        }
        return decoded
    }
}
