public import KeyscopeCore

/// A request carried from a fleet dashboard to one instance through Redis, and its answer (docs/fleet.md "Redis
/// layout"): `{"rid": …, "dashboard": …, "deadline": <Unix ms>, "request": "<the request's JSON text>"}` pushed on
/// the instance's request list; `{"rid": …, "instance": …, "reply": {"type": "reply", …}}` pushed on the dashboard's
/// reply list. The request travels as text, exactly as the client sent it: a request with a member that does not
/// decode (`{"$color": "red"}`) must reach the instance, whose reader answers for it.
///
/// The deadline is the dashboard's promise to its client: past it the dashboard has answered `unavailable`, so the
/// instance drops a request it finds late rather than apply it (docs/fleet.md "Faults": clocks of the machines are
/// assumed within a second of each other, the slack between the deadline and the dashboard's 5 s).
public enum FleetEnvelope {
    /// The request envelope: `request` is the client's JSON object as sent (valid UTF-8: the dashboard read it).
    public static func request(rid: String, dashboard: String, deadlineMillis: Int64, request: [UInt8]) -> [UInt8] {
        StoreValue.object([
            "dashboard": .string(dashboard), "deadline": .integer(deadlineMillis), "rid": .string(rid),
            "request": .string(String(decoding: request, as: UTF8.self)),
        ]).jsonBytes(sortedKeys: true)
    }

    /// A request as the instance reads it.
    public struct Request: Sendable {
        public var rid: String
        public var dashboard: String
        public var deadlineMillis: Int64
        /// The client's request object as it sent it.
        public var request: [UInt8]
    }

    /// Reads a request envelope; `nil` when it is not one (nothing to answer, and nobody to answer to).
    public static func readRequest(_ bytes: [UInt8]) -> Request? {
        guard let value = try? StoreValue(jsonBytes: bytes), let object = value.objectValue,
            case .string(let rid)? = object["rid"], case .string(let dashboard)? = object["dashboard"],
            case .integer(let deadline)? = object["deadline"], case .string(let request)? = object["request"]
        else { return nil }
        return Request(rid: rid, dashboard: dashboard, deadlineMillis: deadline, request: Array(request.utf8))
    }

    /// The answer envelope: `reply` is the instance's `reply` message as its own inspector would send it.
    public static func reply(rid: String, instance: String, reply: [UInt8]) -> [UInt8] {
        var bytes = Array(#"{"instance":"#.utf8)
        bytes += StoreValue.string(instance).jsonBytes()
        bytes += Array(#","reply":"#.utf8)
        bytes += reply
        bytes += Array(#","rid":"#.utf8)
        bytes += StoreValue.string(rid).jsonBytes()
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// An answer as the dashboard reads it: the request's id, who answered, and the reply object.
    public static func readReply(_ bytes: [UInt8]) -> (rid: String, instance: String, reply: StoreValue)? {
        guard let value = try? StoreValue(jsonBytes: bytes), let object = value.objectValue,
            case .string(let rid)? = object["rid"], case .string(let instance)? = object["instance"],
            let reply = object["reply"]
        else { return nil }
        return (rid, instance, reply)
    }
}
