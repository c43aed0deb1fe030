import CLibWebSockets
import Foundation
import KeyscopeLws

/// The conformance echo (``ServerOptions/conformanceEcho``): every WebSocket upgrade that passes the Host and Origin
/// rules (and whose offers lws can read) is accepted, whatever its path, token or subprotocol, and each message is
/// sent back whole, in the frame type it came in. Framing, control frames and the closing handshake are lws's, as
/// for the inspector; messages go through the inspector's ``MessageAssembly`` and limit (1009); lws checks the UTF-8
/// of text as it arrives (1007).
extension ServerCore {
    /// The echo's share of the lws callback; `nil` for what it leaves to ``handle(_:_:_:_:_:)`` (accepting
    /// connections, timers, wake-ups, the upgrade checks of ``upgradeRefusal(_:)``, the end of a connection).
    func handleEcho(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ input: UnsafeMutableRawPointer?, _ length: Int
    ) -> Int32? {
        switch reason {
        case LWS_CALLBACK_HTTP:
            _ = requestLines.take(wsi)
            if let refused = hostRefusal(LwsRequest(wsi: wsi)) { return LwsResponse.refuse(wsi, refused) }
            return LwsResponse.error(
                wsi, status: 404, code: "not_found",
                message: "this is the conformance echo (keyscope serve --echo): it answers WebSocket upgrades only")
        case LWS_CALLBACK_ESTABLISHED:
            guard !stopping else { return -1 }
            echoSessions[wsi] = EchoSession(wsi: wsi, maxMessageBytes: options.maxMessageBytes)
            return 0
        case LWS_CALLBACK_RECEIVE:
            return echoReceive(wsi, input, length)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            return echoWritable(wsi)
        case LWS_CALLBACK_CLOSED:
            echoSessions[wsi] = nil
            if stopping && !hasClients { finished = true }
            return 0
        default:
            return nil
        }
    }

    /// lws 4.1 upgrades only to a subprotocol it has by name, and refuses the rest by dropping the socket. The echo
    /// takes any: its one protocol is renamed to the first name the client offers, which lws then finds and
    /// answers in `Sec-WebSocket-Protocol`. Offers lws cannot read (a first name that is empty, not an RFC 7230 token
    /// or over 62 bytes, a list over 126 bytes) are refused with 400 rather than a dropped socket. Returns the
    /// refusal, or `nil` when the upgrade may go on. Called again for the same request (lws's second check), it
    /// writes the same name.
    func adoptSubprotocol(_ request: LwsRequest) -> Refusal? {
        guard let slot = echoSubprotocol else { return nil }
        guard let offered = request.value(WSI_TOKEN_PROTOCOL) else { return nil }
        let first = offered.split(separator: ",", omittingEmptySubsequences: false)[0]
            .trimmingCharacters(in: .whitespaces)
        // lws copies the list into 128 bytes and each name into 64, each with a NUL, and wants a byte to spare; it
        // fails on an empty list element.
        guard offered.utf8.count <= 126, (1...62).contains(first.utf8.count),
            first.utf8.allSatisfy(Self.isSubprotocolByte)
        else {
            return Refusal(
                status: 400, code: "bad_request",
                message: "Sec-WebSocket-Protocol must list tokens (letters, digits and !#$%&'*+-.^_`|~), the first "
                    + "of at most 62 bytes, at most 126 bytes in all")
        }
        first.utf8CString.withUnsafeBufferPointer { slot.update(from: $0.baseAddress!, count: $0.count) }
        return nil
    }

    /// An RFC 7230 `tchar`, what a subprotocol name is made of.
    private static func isSubprotocolByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: Self.tokenPunctuation.contains(byte)
        }
    }

    private static let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)

    /// A piece of a message: collected until the last fragment, then queued to go back.
    private func echoReceive(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let session = echoSessions[wsi] else { return 0 }
        // As for the inspector: after an oversized message, everything is ignored until the close goes out.
        guard !session.incoming.overLimit, !session.closing else { return 0 }
        switch session.incoming.receive(wsi, input, length) {
        case .partial:
            return 0
        case .overLimit:
            break
        case .complete(let message, let binary):
            session.enqueue(message, binary: binary)
            // One message at a time: lws reads no further until its echo is out. A client that sends without
            // reading holds one message in memory, not all of them; and an echo is not lost when a later frame in
            // the same read breaks the protocol (lws fails the connection before any writable callback).
            session.reading.setPaused(true, on: wsi)
        }
        lws_callback_on_writable(wsi)
        return 0
    }

    /// The socket can take more: one echo per call (lws's rule); after the last echo, the 1009 close if a message
    /// was too large.
    private func echoWritable(_ wsi: OpaquePointer) -> Int32 {
        guard let session = echoSessions[wsi] else { return 0 }
        if session.closing { return WebSocketClose.goingAway(wsi) }
        if session.hasQueuedEchoes {
            guard session.writeNext() else { return -1 }
            if !session.hasQueuedEchoes { session.reading.setPaused(false, on: wsi) }
            if session.hasQueuedEchoes || session.incoming.overLimit { lws_callback_on_writable(wsi) }
            return 0
        }
        if session.incoming.overLimit { return WebSocketClose.messageTooLarge(wsi, limit: options.maxMessageBytes) }
        return 0
    }
}
