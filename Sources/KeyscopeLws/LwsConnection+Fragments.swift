import CLibWebSockets

/// Messages sent in fragments, as the CLI's client does (one fragment per writable event, so that a large message
/// neither blocks the service thread nor has lws buffer all of it).
///
/// ```swift
/// case .clientWriteable:
///     guard connection.writeTextFragment(fragment.bytes, isFirst: fragment.isFirst, isLast: fragment.isLast) else {
///         return -1
///     }
/// ```
extension LwsConnection {
    /// Writes one fragment of a text message (its first and last say where it sits), copied behind the headroom
    /// lws needs. Whatever the socket does not take now, lws sends before the next writable event. False when the
    /// connection failed.
    package func writeTextFragment(_ bytes: ArraySlice<UInt8>, isFirst: Bool, isLast: Bool) -> Bool {
        let pre = kws_pre()
        var buffer = [UInt8](repeating: 0, count: pre + bytes.count)
        buffer.replaceSubrange(pre..., with: bytes)
        let flags = lws_write_ws_flags(Int32(LWS_WRITE_TEXT.rawValue), isFirst ? 1 : 0, isLast ? 1 : 0)
        let written = buffer.withUnsafeMutableBufferPointer { all in
            lws_write(wsi, all.baseAddress! + pre, bytes.count, lws_write_protocol(UInt32(flags)))
        }
        return written >= 0
    }
}
