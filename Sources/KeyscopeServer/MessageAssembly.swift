import CLibWebSockets

/// Puts a WebSocket message together from the pieces lws hands over in `LWS_CALLBACK_RECEIVE` (a frame may come in
/// several pieces, a message in several frames), within a size limit. The inspector's sessions and the conformance
/// echo each hold one, so what the Autobahn suite checks on the echo is the inspector's own reassembly.
///
/// ```swift
/// var incoming = MessageAssembly()
/// switch incoming.receive(wsi, input, length, limit: 4 << 20) {
/// case .partial: break                       // more to come
/// case .complete(let message, let binary): … // the whole message; `bytes` is empty again
/// case .overLimit: …                         // close with 1009; `overLimit` stays set
/// }
/// ```
/// Touched only by the service thread.
struct MessageAssembly {
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

    /// The pieces of the message being received so far.
    private(set) var bytes: [UInt8] = []
    /// Whether the message being received came in binary frames (set from its first frame).
    private(set) var isBinary = false
    /// Set once a message went over the limit: the connection is to close with 1009, and its owner receives
    /// nothing more.
    private(set) var overLimit = false

    /// Adds one piece of the message `wsi` is receiving.
    mutating func receive(
        _ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int, limit: Int
    ) -> Outcome {
        if lws_is_first_fragment(wsi) != 0 { isBinary = lws_frame_is_binary(wsi) != 0 }
        let remaining = lws_remaining_packet_payload(wsi)
        guard bytes.count + length + remaining <= limit else {
            bytes = []
            overLimit = true
            return .overLimit
        }
        if let input, length > 0 {
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        guard lws_is_final_fragment(wsi) != 0, remaining == 0 else { return .partial }
        let message = bytes
        bytes = []
        return .complete(message, binary: isBinary)
    }
}
