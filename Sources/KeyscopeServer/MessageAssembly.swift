import CLibWebSockets

/// Puts a WebSocket message together from the pieces lws hands over in `LWS_CALLBACK_RECEIVE` (a frame may come in
/// several pieces, a message in several frames), within a size limit. The inspector's sessions and the conformance
/// echo both receive through it, so what the Autobahn suite checks on the echo is the inspector's own reassembly.
///
/// ```swift
/// switch MessageAssembly.receive(wsi, input, length, into: &inbox, isBinary: &binary, limit: 4 << 20) {
/// case .partial: break                       // more to come
/// case .complete(let message, let binary): … // the whole message; `inbox` is empty again
/// case .overLimit: …                         // close with 1009; `inbox` was dropped
/// }
/// ```
enum MessageAssembly {
    /// What one piece made of the message being received.
    enum Outcome {
        /// More of the message is to come.
        case partial
        /// The last piece of the message: its bytes and whether it came in binary frames.
        case complete([UInt8], binary: Bool)
        /// The message would be over the limit (counting what its current frame announced but has not sent yet):
        /// nothing of it is kept.
        case overLimit
    }

    /// Adds one piece to `inbox` (`isBinary` is set from the message's first frame).
    static func receive(
        _ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int, into inbox: inout [UInt8],
        isBinary: inout Bool, limit: Int
    ) -> Outcome {
        if lws_is_first_fragment(wsi) != 0 { isBinary = lws_frame_is_binary(wsi) != 0 }
        let remaining = lws_remaining_packet_payload(wsi)
        guard inbox.count + length + remaining <= limit else {
            inbox = []
            return .overLimit
        }
        if let input, length > 0 {
            inbox.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        guard lws_is_final_fragment(wsi) != 0, remaining == 0 else { return .partial }
        let message = inbox
        inbox = []
        return .complete(message, binary: isBinary)
    }
}
