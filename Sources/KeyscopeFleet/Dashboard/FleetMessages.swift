import KeyscopeCodec
import KeyscopeCore
import KeyscopeProtocol

/// The messages a fleet dashboard adds to docs/protocol.md's (docs/fleet.md "All instances at once").
enum FleetMessages {
    /// `{"type":"changes","entries":[…]}` from log lines, each with `"instance": ID` first when `instance` is given.
    static func changes(_ lines: [(instance: String?, line: [UInt8])]) -> [UInt8] {
        var bytes = Array(#"{"type":"changes","entries":["#.utf8)
        for (index, item) in lines.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            if let instance = item.instance, item.line.first == UInt8(ascii: "{"), item.line.count > 2 {
                bytes += Array(#"{"instance":"#.utf8)
                bytes += StoreValue.string(instance).jsonBytes()
                bytes.append(UInt8(ascii: ","))
                bytes += item.line.dropFirst()
            } else {
                bytes += item.line
            }
        }
        bytes += Array("]}".utf8)
        return bytes
    }

    /// `{"type":"gap","from":A,"to":B}`, with `"instance": ID` when given.
    static func gap(from: Int, to: Int, instance: String?) -> [UInt8] {
        var object: [String: StoreValue] = [
            "type": "gap", "from": .integer(Int64(from)), "to": .integer(Int64(to)),
        ]
        if let instance { object["instance"] = .string(instance) }
        return StoreValue.object(object).jsonBytes(sortedKeys: true)
    }

    /// `{"type":"fleet","fleet":NAME,"instances":[…]}`.
    static func fleet(_ view: FleetView) -> [UInt8] {
        guard case .object(var object) = view.fleetObject() else { return [] }
        object["type"] = "fleet"
        return StoreValue.object(object).jsonBytes(sortedKeys: true)
    }

    /// The request's members, `nil` when it is not a JSON object.
    /// The members of a client's request that the dashboard reads (`id`, `type`, `instance`, `store`…); `nil` when
    /// the request is not a JSON object. A member whose value does not decode (`{"$color": "red"}`) is left out:
    /// the request goes on as sent, and the instance answers for it as its own inspector would.
    static func members(_ request: [UInt8]) -> [String: StoreValue]? {
        guard let members = try? JanssonCodec.decodeMembers(request, maxDepth: maxRequestDepth) else { return nil }
        return members.compactMapValues { try? $0.get() }
    }

    /// How deep a request may nest: as deep as an instance reads (``FleetResponder``).
    static let maxRequestDepth = StoreLimits.maxDepth + 8

    static let notAnObject = HubError(
        code: .badJSON, message: "a request is one JSON object, such as {\"id\":1,\"type\":\"resync\"}")

}
