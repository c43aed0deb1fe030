/// Joins the pieces of one WebSocket message (frames and the chunks lws hands over per receive buffer) into the
/// whole message, refusing a message that grows past a limit.
///
/// ```swift
/// var assembler = MessageAssembler(limit: 64 << 20)
/// switch assembler.append(chunk, isFinal: lws_is_final_fragment(wsi) != 0) {
/// case .partial: break
/// case .complete(let message): deliver(message)
/// case .tooLarge: close(1009)
/// }
/// ```
/// Pure value logic, no lws: the service thread owns the one instance of a connection.
struct MessageAssembler {
    /// What appending a piece gave.
    enum Outcome: Equatable {
        /// More pieces are to come.
        case partial
        /// The message is whole.
        case complete([UInt8])
        /// The message would be larger than the limit; what was gathered is dropped.
        case tooLarge
    }

    /// The largest message accepted, in bytes.
    let limit: Int
    private var buffer: [UInt8] = []

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// The number of bytes gathered for the message under way.
    var pendingCount: Int { buffer.count }

    /// Adds a piece. `isFinal` is true for the last piece of the last frame of the message.
    mutating func append(_ piece: UnsafeRawBufferPointer, isFinal: Bool) -> Outcome {
        guard buffer.count + piece.count <= limit else {
            buffer = []
            return .tooLarge
        }
        if isFinal && buffer.isEmpty {
            return .complete(Array(piece))
        }
        buffer.append(contentsOf: piece)
        guard isFinal else { return .partial }
        defer { buffer = [] }
        return .complete(buffer)
    }

    /// ``append(_:isFinal:)`` for bytes in an array (tests, and callers without a raw buffer).
    mutating func append(_ piece: [UInt8], isFinal: Bool) -> Outcome {
        piece.withUnsafeBytes { append($0, isFinal: isFinal) }
    }
}
