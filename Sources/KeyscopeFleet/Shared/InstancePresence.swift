public import KeyscopeCodec
public import KeyscopeCore

/// What an instance publishes about itself in its presence hash (`<fleet>:instance:<id>`), refreshed by its
/// heartbeat; a fleet dashboard lists it (`GET /api/fleet`).
public struct InstancePresence: Sendable, Hashable {
    /// `[A-Za-z0-9._-]{1,64}`, unique in the fleet.
    public var id: String
    /// The service's name (the inspector's `hello` name).
    public var name: String
    public var host: String
    public var pid: Int
    /// Keyscope's version in the instance.
    public var version: String
    public var startedAt: LogTime
    /// The last heartbeat.
    public var lastSeen: LogTime
    /// The last seq of the instance's log that it published.
    public var seq: Int
    /// Whether it refuses requests from the fleet.
    public var readOnly: Bool
    /// A random id of this run of the instance: a restart under the same id starts a new log.
    public var epoch: String
    /// Set when the instance left on purpose (it stopped): it is `gone` at once rather than after a silence.
    public var stopped: Bool

    public init(
        id: String, name: String, host: String, pid: Int, version: String, startedAt: LogTime, lastSeen: LogTime,
        seq: Int, readOnly: Bool, epoch: String, stopped: Bool = false
    ) {
        self.id = id
        self.name = name
        self.host = host
        self.pid = pid
        self.version = version
        self.startedAt = startedAt
        self.lastSeen = lastSeen
        self.seq = seq
        self.readOnly = readOnly
        self.epoch = epoch
        self.stopped = stopped
    }

    /// The hash's fields and values, for `HSET`.
    public var fields: [String] {
        [
            "id", id, "name", name, "host", host, "pid", String(pid), "version", version,
            "startedAt", startedAt.rfc3339, "lastSeen", String(lastSeen.microsecondsSince1970), "seq", String(seq),
            "readOnly", readOnly ? "1" : "0", "epoch", epoch, "stopped", stopped ? "1" : "0",
        ]
    }

    /// Reads an `HGETALL` reply's pairs; `nil` when a field is missing or malformed (a half-written or foreign hash).
    public init?(fields pairs: [String: String]) {
        guard let id = pairs["id"], let name = pairs["name"], let host = pairs["host"],
            let pid = pairs["pid"].flatMap(Int.init), let version = pairs["version"],
            let startedAt = pairs["startedAt"].flatMap(LogTime.init(rfc3339:)),
            let lastSeen = pairs["lastSeen"].flatMap(Int64.init).flatMap(LogTime.init(microsecondsSince1970:)),
            let seq = pairs["seq"].flatMap(Int.init), let epoch = pairs["epoch"]
        else { return nil }
        self.init(
            id: id, name: name, host: host, pid: pid, version: version, startedAt: startedAt, lastSeen: lastSeen,
            seq: seq, readOnly: pairs["readOnly"] == "1", epoch: epoch, stopped: pairs["stopped"] == "1")
    }

    /// Whether it is `live` at `now`: it has not stopped and its last heartbeat is recent (``FleetKeys/goneAfter``).
    public func isLive(at now: LogTime) -> Bool {
        !stopped && now.microsecondsSince1970 - lastSeen.microsecondsSince1970 < Self.goneAfterMicros
    }

    static let goneAfterMicros: Int64 = {
        let (seconds, attoseconds) = FleetKeys.goneAfter.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }()
}
