import CLibWebSockets

/// Puts a WebSocket message together from the pieces lws hands over in `.receive` and `.clientReceive` events (a
/// frame may come in several pieces, a message in several frames), within a size limit. The inspector's sessions,
/// the conformance echo and the CLI's client each hold one per connection, so what the Autobahn suite checks on the
/// echo is the inspector's own reassembly.
///
/// ```swift
/// var incoming = MessageAssembly(limit: 4 << 20)
/// switch incoming.receive(connection, input, length) {
/// case .partial: break                           // more to come
/// case .complete(let message, let binary): …     // the whole message; nothing is held any more
/// case .overLimit: …                             // close with 1009; `overLimit` stays set
/// }
/// ```
/// Touched only by the service thread of its connection.
package struct MessageAssembly {
    /// What one piece made of the message being received.
    package enum Outcome: Equatable, Sendable {
        /// More of the message is to come.
        case partial
        /// The last piece of the message: its bytes and whether it came in binary frames.
        case complete([UInt8], binary: Bool)
        /// The message would be over the limit (counting what its current frame announced but has not sent yet):
        /// nothing of it is kept.
        case overLimit
    }

    /// The largest message accepted, in bytes.
    package let limit: Int
    /// The pieces of the message being received so far.
    private var bytes: [UInt8] = []
    /// Whether the message being received came in binary frames (set from its first frame).
    private var isBinary = false
    /// Set once a message went over the limit: the connection is to close with 1009, and its owner receives
    /// nothing more.
    package private(set) var overLimit = false

    package init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// The number of bytes held for the message under way.
    package var pendingCount: Int { bytes.count }

    /// Adds one piece of the message `connection` is receiving (what lws's receive event was given).
    package mutating func receive(_ connection: LwsConnection, _ input: UnsafeMutableRawPointer?, _ length: Int)
        -> Outcome
    {
        let wsi = connection.wsi
        let piece = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
        return append(
            piece, first: lws_is_first_fragment(wsi) != 0, final: lws_is_final_fragment(wsi) != 0,
            binary: lws_frame_is_binary(wsi) != 0, announced: lws_remaining_packet_payload(wsi))
    }

    /// Adds a piece. `first` is true for the first piece of the message's first frame (whose `binary` says the
    /// message's type), `final` for the last piece of its last frame; `announced` is what the current frame still
    /// has to send after this piece.
    package mutating func append(
        _ piece: UnsafeRawBufferPointer, first: Bool, final: Bool, binary: Bool = false, announced: Int = 0
    ) -> Outcome {
        if first { isBinary = binary }
        guard bytes.count + piece.count + announced <= limit else {
            bytes = []
            overLimit = true
            return .overLimit
        }
        guard final, announced == 0 else {
            bytes.append(contentsOf: piece)
            return .partial
        }
        // A message in one piece is not copied twice.
        if bytes.isEmpty { return .complete(Array(piece), binary: isBinary) }
        bytes.append(contentsOf: piece)
        defer { bytes = [] }
        return .complete(bytes, binary: isBinary)
    }
}
