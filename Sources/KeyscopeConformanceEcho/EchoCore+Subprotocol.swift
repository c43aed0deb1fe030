import Foundation
import KeyscopeLws

/// Any subprotocol: lws 4.1 upgrades only to a subprotocol it has by name, and refuses the rest by dropping the
/// socket.
extension EchoCore {
    /// The echo's one protocol is renamed to the first name the client offers, which lws then finds and answers in
    /// `Sec-WebSocket-Protocol`. Offers lws cannot read (a first name that is empty, not an RFC 7230 token or over 62
    /// bytes, a list over 126 bytes) are refused with 400 rather than a dropped socket. Returns the refusal, or `nil`
    /// when the upgrade may go on. Called again for the same request (lws's second check), it writes the same name.
    func adoptSubprotocol(_ request: LwsRequest) -> Refusal? {
        guard let slot = subprotocol else { return nil }
        guard let offered = request.value(.webSocketProtocol) else { return nil }
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
}
