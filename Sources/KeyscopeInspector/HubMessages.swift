import KeyscopeCodec
public import KeyscopeCore

/// The bytes of the server-to-client messages the hub feeds (docs/protocol.md "WebSocket"), made by concatenating parts
/// that are already encoded: log lines are encoded once and shared by every client.
///
/// ```swift
/// if case .entries(let entries) = cursor.next(maxEntries: 1000, maxBytes: 1 << 20) {
///     send(HubMessages.changes(entries))    // {"type":"changes","entries":[…]}
/// }
/// ```
public enum HubMessages {
    /// `{"type":"changes","entries":[e1,e2,…]}` from the entries' cached lines, after `headroom` zero bytes (room a
    /// transport may need in front of the payload, such as libwebsockets' `LWS_PRE`, without another copy).
    public static func changes(_ entries: [HubLogEntry], headroom: Int = 0) -> [UInt8] {
        var bytes: [UInt8] = []
        appendChanges(entries, headroom: headroom, to: &bytes)
        return bytes
    }

    /// Appends the bytes of ``changes(_:headroom:)`` to `bytes`: for a sender that clears one buffer and refills it
    /// for each frame. (Frames of a busy client are up to 256 KiB, and a fresh buffer for each one cost the
    /// server's thread page faults for every frame.)
    public static func appendChanges(_ entries: [HubLogEntry], headroom: Int = 0, to bytes: inout [UInt8]) {
        let lines = entries.map(\.lineBytes)
        var total = bytes.count + 32 + headroom
        for line in lines { total += line.count + 1 }
        bytes.reserveCapacity(total)
        if headroom > 0 { bytes.append(contentsOf: repeatElement(0, count: headroom)) }
        JSONBytes.appendLiteral(#"{"type":"changes","entries":["#, to: &bytes)
        for (index, line) in lines.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += line
        }
        JSONBytes.appendLiteral("]}", to: &bytes)
    }

    /// `{"type":"gap","from":A,"to":B}`: entries A…B were not sent; a snapshot with seq B follows.
    public static func gap(from: Int, to: Int) -> [UInt8] {
        Array(#"{"type":"gap","from":\#(from),"to":\#(to)}"#.utf8)
    }

    /// `{"type":"subscriptions","list":[…]}`.
    public static func subscriptions(_ list: [SubscriptionInfo]) -> [UInt8] {
        Array(#"{"type":"subscriptions","list":"#.utf8) + subscriptionList(list) + [UInt8(ascii: "}")]
    }

    /// The `list` of a `subscriptions` message (and of a snapshot): one object per subscription and path,
    /// `{"deliveries":N,"id":…,"label":…|null,"path":"…","since":"2026-…Z","store":"…"}`.
    public static func subscriptionList(_ list: [SubscriptionInfo]) -> [UInt8] {
        StoreValue.array(list.flatMap(subscriptionObjects)).jsonBytes(sortedKeys: true)
    }

    /// One subscription as list objects, one per path it listens to.
    public static func subscriptionObjects(_ info: SubscriptionInfo) -> [StoreValue] {
        info.keyPaths.map { path in
            .object([
                "id": .integer(Int64(truncatingIfNeeded: info.id)), "store": .string(info.storeID.description),
                "path": .string(path.description), "label": info.label.map(StoreValue.string) ?? .null,
                "since": .string((LogTime(info.since) ?? .now).rfc3339), "deliveries": .integer(Int64(info.deliveries)),
            ])
        }
    }
}
