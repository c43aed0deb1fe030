public import KeyscopeCodec
public import KeyscopeCore

/// One instance as a fleet dashboard lists it (`GET /api/fleet`, the `fleet` message): its presence, whether it is
/// live, and how fast it changes.
public struct FleetInstance: Sendable, Hashable {
    public var presence: InstancePresence
    /// `live`, or `gone` once it stopped or has been silent for ``FleetKeys/goneAfter``.
    public var isLive: Bool
    /// Changes per second over the last few seconds (from its published seqs).
    public var changeRate: Double

    public var id: String { presence.id }

    /// `{"id", "state": "live"|"gone", "name", "host", "pid", "version", "startedAt", "lastSeen", "seq", "readOnly",
    /// "rate"}` (times as in docs/recording.md).
    public var jsonObject: StoreValue {
        .object([
            "id": .string(presence.id), "state": .string(isLive ? "live" : "gone"), "name": .string(presence.name),
            "host": .string(presence.host), "pid": .integer(Int64(presence.pid)),
            "version": .string(presence.version), "startedAt": .string(presence.startedAt.rfc3339),
            "lastSeen": .string(presence.lastSeen.rfc3339), "seq": .integer(Int64(presence.seq)),
            "readOnly": .bool(presence.readOnly), "rate": .number((changeRate * 10).rounded() / 10),
        ])
    }
}
