/// One text message on its way out, cut into fragments of at most `fragmentSize` bytes: lws writes each fragment
/// in its own writeable callback, so that one big message neither blocks the service thread nor makes lws buffer
/// the whole of it.
///
/// ```swift
/// var message = FragmentedMessage(bytes, fragmentSize: 64 << 10)
/// let fragment = message.next()!     // fragment.bytes, fragment.isFirst, fragment.isLast
/// ```
struct FragmentedMessage {
    /// A part of the message and where it sits.
    struct Fragment: Equatable {
        var bytes: ArraySlice<UInt8>
        var isFirst: Bool
        var isLast: Bool
    }

    private let bytes: [UInt8]
    private let fragmentSize: Int
    private var offset = 0
    private var started = false

    init(_ bytes: [UInt8], fragmentSize: Int) {
        self.bytes = bytes
        self.fragmentSize = max(1, fragmentSize)
    }

    /// Whether every fragment was handed out.
    var isDone: Bool { started && offset >= bytes.count }

    /// The next fragment, or nil when all were handed out. An empty message is one empty, final fragment.
    mutating func next() -> Fragment? {
        guard !isDone else { return nil }
        let end = min(bytes.count, offset + fragmentSize)
        let fragment = Fragment(bytes: bytes[offset..<end], isFirst: !started, isLast: end == bytes.count)
        started = true
        offset = end
        return fragment
    }
}
