import CLibWebSockets

/// The server takes no WebSocket extension (no permessage-deflate), so a client's `Sec-WebSocket-Extensions` offers
/// are simply not answered (RFC 6455 9.1). But lws 4.1 walks the offers while it answers an upgrade, and drops the
/// connection without a response when they are 255 bytes or more (three permessage-deflate offers with their
/// parameters are enough: Autobahn's cases 13.7.*); its public API cannot hide the header from that walk. Such an
/// upgrade is refused instead, with a status that says why.
package enum ExtensionOffers {
    /// The longest `Sec-WebSocket-Extensions` value (repeated headers joined by commas) lws 4.1 answers.
    package static let maxBytes = 254

    /// 431 `too_large` when the offers are over ``maxBytes``; `nil` otherwise.
    package static func refusal(_ request: LwsRequest) -> Refusal? {
        let length = Int(lws_hdr_total_length(request.wsi, LwsHeader.webSocketExtensions.token))
        guard length > maxBytes else { return nil }
        return Refusal(
            status: 431, code: "too_large",
            message: "Sec-WebSocket-Extensions is \(length) bytes; this server takes no extensions and cannot answer "
                + "offers over \(maxBytes) bytes: send fewer (or none)")
    }
}
