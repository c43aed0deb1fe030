/// Where a fleet's inspection data lives in Redis (docs/fleet.md "Redis layout"), every key under `<fleet>:`:
///
/// | key | type | holds |
/// | --- | --- | --- |
/// | `<fleet>:instances` | sorted set | instance id → when it was last seen (Unix ms) |
/// | `<fleet>:instance:<id>` | hash | its presence (``InstancePresence``) |
/// | `<fleet>:instance:<id>:log` | stream | its change log: one entry per batch, id `<first seq>-n`, fields `f`, `l` (first and last seq), `d` (the lines, `\n` between); a subscriptions entry has `s` (the list's JSON) |
/// | `<fleet>:instance:<id>:snapshot` | string | its latest published `snapshot` message (secrets redacted) |
/// | `<fleet>:instance:<id>:requests` | list | requests for it from fleet dashboards (``FleetEnvelope``) |
/// | `<fleet>:dashboard:<id>:replies` | list | the answers for one fleet dashboard |
///
/// An instance's keys expire an hour after it was last seen; the stream is trimmed to about ``FleetOptions/logLength``
/// entries of the change log.
public struct FleetKeys: Sendable, Hashable {
    public let fleet: String

    public init(fleet: String) { self.fleet = fleet }

    public var instances: String { "\(fleet):instances" }
    public func presence(_ id: String) -> String { "\(fleet):instance:\(id)" }
    public func log(_ id: String) -> String { "\(fleet):instance:\(id):log" }
    public func snapshot(_ id: String) -> String { "\(fleet):instance:\(id):snapshot" }
    public func requests(_ id: String) -> String { "\(fleet):instance:\(id):requests" }
    public func replies(dashboard: String) -> String { "\(fleet):dashboard:\(dashboard):replies" }

    /// Every key that holds one instance's data.
    public func all(_ id: String) -> [String] { [presence(id), log(id), snapshot(id), requests(id)] }

    /// How long an instance's data outlives its last heartbeat.
    public static let retention = Duration.seconds(3600)
    /// How long after its last heartbeat an instance is shown `gone`.
    public static let goneAfter = Duration.seconds(6)
}
