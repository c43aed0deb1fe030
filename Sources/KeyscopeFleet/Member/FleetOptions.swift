import Foundation
public import KeyscopeRedis

/// How an instance joins a fleet (docs/fleet.md): the Redis it shares with the other instances, the fleet's name,
/// and its own id.
///
/// ```swift
/// let fleet = try FleetOptions(redis: "redis://127.0.0.1:6379", fleet: "shop", instance: "shop-1")
/// try Inspector.start(features: [FleetMember(fleet)])
/// ```
public struct FleetOptions: Sendable {
    /// The Redis server (credentials inside: print ``RedisURL/description`` only, which has none).
    public var redis: RedisURL
    /// The fleet: every key lives under `<fleet>:` (`[A-Za-z0-9._-]{1,64}`).
    public var fleet: String
    /// This instance's id (`[A-Za-z0-9._-]{1,64}`), by default `<hostname>-<pid>`.
    public var instance: String
    /// The service's name as the fleet dashboard lists it.
    public var name: String
    /// Refuse every request that arrives through the fleet with `read_only` (the instance's own inspector keeps its
    /// own setting).
    public var readOnly: Bool
    /// Change-log entries kept in Redis for this instance (approximately; the oldest are trimmed).
    public var logLength = 100_000
    /// How often the instance says it is alive (a fleet dashboard shows it `gone` after 6 s of silence).
    public var heartbeat: Duration = .seconds(1)
    /// Connection and command timeouts towards Redis.
    public var connectTimeout: Duration = .seconds(1)
    public var commandTimeout: Duration = .seconds(2)

    /// - Throws: ``RedisError`` `badURL` for a bad URL, fleet name or instance id (the message says which).
    public init(
        redis: RedisURL, fleet: String = "keyscope", instance: String? = nil, name: String? = nil,
        readOnly: Bool = false
    ) throws(RedisError) {
        let instance = instance ?? RedisBackend.defaultInstanceID()
        try RedisBackend.checkFleetName(fleet, "fleet name")
        try RedisBackend.checkFleetName(instance, "instance id")
        self.redis = redis
        self.fleet = fleet
        self.instance = instance
        self.name = name ?? ProcessInfo.processInfo.processName
        self.readOnly = readOnly
    }

    /// ``init(redis:fleet:instance:name:readOnly:)`` with the URL as text (`redis://[user:password@]host:port[/db]`).
    public init(
        redis: String, fleet: String = "keyscope", instance: String? = nil, name: String? = nil, readOnly: Bool = false
    ) throws(RedisError) {
        try self.init(redis: RedisURL(parsing: redis), fleet: fleet, instance: instance, name: name, readOnly: readOnly)
    }
}
