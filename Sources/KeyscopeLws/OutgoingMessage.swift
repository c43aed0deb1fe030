import CLibWebSockets

/// A message ready for `lws_write`: the payload after `headroom` bytes that lws may overwrite (`LWS_PRE`, see
/// ``preambleBytes``), sent as text unless `binary`.
///
/// ```swift
/// var frame: [UInt8] = []
/// encodeFrame(into: &frame, after: OutgoingMessage.preambleBytes)   // payload written once, behind the headroom
/// let message = OutgoingMessage(bytes: frame, headroom: OutgoingMessage.preambleBytes)
/// guard message.write(to: connection) else { return -1 }
/// ```
package struct OutgoingMessage {
    /// The bytes lws needs in front of a payload it writes (`LWS_PRE`): room for the frame's header, which it writes
    /// in place rather than copying the payload.
    package static var preambleBytes: Int { kws_pre() }

    package var bytes: [UInt8]
    package let headroom: Int
    package let binary: Bool

    package init(bytes: [UInt8], headroom: Int, binary: Bool = false) {
        self.bytes = bytes
        self.headroom = headroom
        self.binary = binary
    }

    /// Copies a payload behind fresh headroom.
    package init(payload: [UInt8], binary: Bool = false) {
        let headroom = kws_pre()
        var bytes = [UInt8](repeating: 0, count: headroom)
        bytes.reserveCapacity(headroom + payload.count)
        bytes += payload
        self.init(bytes: bytes, headroom: headroom, binary: binary)
    }

    /// Sends it as one message; whatever the socket does not take now, lws sends before the next writable callback.
    /// Returns false when the connection failed.
    package mutating func write(to connection: LwsConnection) -> Bool {
        let wsi = connection.wsi
        let length = bytes.count - headroom
        let headroom = self.headroom
        let protocolKind = binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT
        return bytes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            return lws_write(wsi, base + headroom, length, protocolKind) >= length
        }
    }
}
