import CLibWebSockets

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps each connection's request line exactly as the client sent it, because lws 4.1 cannot give it back.
///
/// lws decodes the request target while it parses it and keeps only the result: `%2F` becomes a `/` that is
/// indistinguishable from a segment separator, `//` collapses, `/./` and `/../` are resolved (encoded dots too),
/// a raw `;` or `&` cuts the path, and a bad escape such as `%zz` gets lws's own HTML 403. `PUT /tune/:key/:value`
/// and `/api/preferences/:source/:container/:key` need the segments as sent, so the server reads the request line
/// itself, without consuming it: when lws accepts a connection, its socket is peeked (`MSG_PEEK`); when the line is
/// not all there yet, lws is told not to read the socket (`lws_rx_flow_control`) and the peek is repeated on a
/// per-connection lws timer until the line is complete (or the client closes, or the line is over the header limit,
/// or the header timeout passes), then reading resumes.
/// lws then reads and parses the same bytes as usual; only ``ServerCore`` looks at the captured line.
///
/// Service thread only, like every lws call.
struct RequestLineCapture {
    /// The connections whose request line is not complete yet, with the number of peeks so far.
    private var held: [OpaquePointer: Int] = [:]
    /// Complete request lines (without CR LF) of connections whose request lws has not handed over yet.
    private var lines: [OpaquePointer: [UInt8]] = [:]
    /// Scratch space for peeks.
    private var buffer: [UInt8]
    /// How many peeks a connection may wait for before its request line is left to lws alone.
    private let maxPeeks: Int

    init(maxHeaderBytes: Int, headerTimeout: Duration) {
        buffer = [UInt8](repeating: 0, count: max(1024, maxHeaderBytes))
        let seconds = Double(headerTimeout.components.seconds)
        maxPeeks = Self.fastPeeks + Int(seconds * 1_000_000 / Double(Self.slowInterval)) + 1
    }

    /// Peeks this often for the first ``fastPeeks`` peeks (a request line split over TCP segments)…
    static let fastInterval: lws_usec_t = 1_000
    static let fastPeeks = 20
    /// …then this often (a client that connected and is slow to send, or sends nothing).
    static let slowInterval: lws_usec_t = 25_000

    /// lws accepted a connection: keep its request line if it is there, else hold the socket until it is. Returns
    /// whether the line was kept now.
    mutating func accepted(_ wsi: OpaquePointer) -> Bool {
        if peek(wsi) { return lines[wsi] != nil }
        held[wsi] = 0
        _ = lws_rx_flow_control(wsi, 0)
        lws_set_timer_usecs(wsi, Self.fastInterval)
        return false
    }

    /// The connection's timer fired: peek again; release the socket to lws once there is nothing more to wait for.
    /// Returns whether the line was kept now.
    mutating func timer(_ wsi: OpaquePointer) -> Bool {
        guard let peeks = held[wsi] else { return false }
        if peek(wsi) || peeks + 1 >= maxPeeks {
            held[wsi] = nil
            _ = lws_rx_flow_control(wsi, Int32(1 | LWS_RXFLOW_REASON_FLAG_PROCESS_NOW))
            return lines[wsi] != nil
        }
        held[wsi] = peeks + 1
        lws_set_timer_usecs(wsi, peeks + 1 < Self.fastPeeks ? Self.fastInterval : Self.slowInterval)
        return false
    }

    /// Whether `wsi` is waiting for its request line (its timer is the capture's).
    func isHolding(_ wsi: OpaquePointer) -> Bool { held[wsi] != nil }

    /// The kept request line of `wsi`, left in place.
    func line(_ wsi: OpaquePointer) -> [UInt8]? { lines[wsi] }

    /// The request line of `wsi`, as sent (without CR LF), taken out of the capture; `nil` when it was not
    /// captured.
    mutating func take(_ wsi: OpaquePointer) -> [UInt8]? {
        lines.removeValue(forKey: wsi)
    }

    /// The connection is gone.
    mutating func forget(_ wsi: OpaquePointer) {
        held[wsi] = nil
        lines[wsi] = nil
    }

    /// Peeks at the socket; true when waiting is over (the line is complete and kept, or it never will be).
    private mutating func peek(_ wsi: OpaquePointer) -> Bool {
        let fd = lws_get_socket_fd(wsi)
        guard fd >= 0 else { return true }
        let count = buffer.withUnsafeMutableBytes { raw in
            recv(fd, raw.baseAddress, raw.count, Int32(MSG_PEEK | MSG_DONTWAIT))
        }
        if count < 0 { return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR }
        guard count > 0 else { return true }  // the client closed: lws will see it
        guard let newline = buffer[..<count].firstIndex(of: UInt8(ascii: "\n")) else {
            return count >= buffer.count  // over the header limit: lws answers 431
        }
        var line = Array(buffer[..<newline])
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        lines[wsi] = line
        return true
    }
}
