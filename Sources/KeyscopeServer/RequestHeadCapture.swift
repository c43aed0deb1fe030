import KeyscopeLws

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads each connection's request head before lws does (its request line exactly as the client sent it, because
/// lws 4.1 cannot give it back, and whether the head is over the limits lws would silently drop it for).
///
/// lws decodes the request target while it parses it and keeps only the result: `%2F` becomes a `/` that is
/// indistinguishable from a segment separator, `//` collapses, `/./` and `/../` are resolved (encoded dots too),
/// a raw `;` or `&` cuts the path, and a bad escape such as `%zz` gets lws's own HTML 403. Routes that take names
/// in their path (a value may be a URL) need the segments as sent, so the server reads the request line
/// itself, without consuming it: when lws accepts a connection, its socket is peeked (`MSG_PEEK`); when the head is
/// not all there yet, lws is told not to read the socket (`lws_rx_flow_control`) and the socket joins a
/// ``KeyscopeLws/ReadinessWatch``, whose one descriptor lws polls with the others. The socket is peeked again only
/// when new bytes (or a hang-up) arrive, until the head is complete, the client closed, or the head is over the
/// header limit; then reading resumes. A held connection costs no timer and no CPU while its client sends nothing; lws's own header
/// timeout still drops it. lws then reads and parses the same bytes as usual; only ``ServerCore`` looks at the
/// captured line.
///
/// Service thread only, like every lws call.
struct RequestHeadCapture {
    /// Tells when held sockets have news.
    let watch = ReadinessWatch()
    /// The held connections (their request head is not complete yet), by socket, and their sockets.
    private var heldBySocket: [Int32: LwsConnection] = [:]
    private var sockets: [LwsConnection: Int32] = [:]
    /// What was read of the request head of connections whose request lws has not handed over yet.
    private var heads: [LwsConnection: RequestHead] = [:]
    /// Scratch space for peeks.
    private var buffer: [UInt8]
    /// Connections held during this turn of the service loop (see ``settleNewHolds()``).
    private var justHeld: Set<LwsConnection> = []

    init(maxHeaderBytes: Int) {
        buffer = [UInt8](repeating: 0, count: max(1024, maxHeaderBytes))
    }

    /// How many connections are held, waiting for the rest of their request head.
    var heldCount: Int { sockets.count }

    /// lws accepted a connection: read its request head if it is all there, else hold the socket until it is.
    /// Returns whether the head was read now.
    mutating func accepted(_ wsi: LwsConnection) -> Bool {
        if peek(wsi) { return heads[wsi] != nil }
        let fd = wsi.socketDescriptor
        // A descriptor number lws reuses: whatever held it before is gone.
        if let stale = heldBySocket[fd] { forget(stale) }
        guard watch.watch(fd) else { return false }  // no watch: the line is left to lws alone
        heldBySocket[fd] = wsi
        sockets[wsi] = fd
        wsi.setReceiving(false, immediately: true)
        justHeld.insert(wsi)
        return false
    }

    /// After each turn of lws's service loop: lws 4.1 attaches a header table to a new connection after the
    /// accept callback and, doing so, asks its poll for POLLIN again whatever the connection's flow control says.
    /// It then never reads the socket (the connection is flow-controlled) but its poll reports it readable at every
    /// turn: a busy loop over every held connection (what held a core in issue 23, with the timers). Telling lws
    /// again once the accept is done takes the socket out of its poll for good.
    mutating func settleNewHolds() {
        guard !justHeld.isEmpty else { return }
        for wsi in justHeld where sockets[wsi] != nil {
            wsi.setReceiving(false, immediately: true)
        }
        justHeld.removeAll(keepingCapacity: true)
    }

    /// The watch's descriptor is readable: peeks at each held socket that had news, and hands back to lws those
    /// with nothing more to wait for. Returns the connections whose line was kept now.
    mutating func watchReported() -> [LwsConnection] {
        var kept: [LwsConnection] = []
        for fd in watch.drain() {
            guard let wsi = heldBySocket[fd], peek(wsi) else { continue }
            release(wsi)
            if heads[wsi] != nil { kept.append(wsi) }
        }
        return kept
    }

    /// Whether `wsi` is waiting for the rest of its request head.
    func isHolding(_ wsi: LwsConnection) -> Bool { sockets[wsi] != nil }

    /// What was read of the request head of `wsi`, left in place.
    func head(_ wsi: LwsConnection) -> RequestHead? { heads[wsi] }

    /// The request line of `wsi`, as sent (without CR LF), taken out of the capture; `nil` when it was not
    /// captured.
    mutating func take(_ wsi: LwsConnection) -> [UInt8]? {
        heads.removeValue(forKey: wsi)?.line
    }

    /// The connection is gone (or about to be closed).
    mutating func forget(_ wsi: LwsConnection) {
        if let fd = sockets.removeValue(forKey: wsi) {
            heldBySocket[fd] = nil
            watch.unwatch(fd)
        }
        justHeld.remove(wsi)
        heads[wsi] = nil
    }

    /// Lets lws read the socket again.
    private mutating func release(_ wsi: LwsConnection) {
        guard let fd = sockets.removeValue(forKey: wsi) else { return }
        heldBySocket[fd] = nil
        watch.unwatch(fd)
        wsi.setReceiving(true, immediately: true)
    }

    /// Peeks at the socket; true when waiting is over (the head is complete and read, it is over the limit, or it
    /// never will be complete).
    private mutating func peek(_ wsi: LwsConnection) -> Bool {
        let fd = wsi.socketDescriptor
        guard fd >= 0 else { return true }
        let count = buffer.withUnsafeMutableBytes { raw in
            recv(fd, raw.baseAddress, raw.count, Int32(MSG_PEEK | MSG_DONTWAIT))
        }
        if count < 0 { return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR }
        guard count > 0 else { return true }  // the client closed: lws will see it
        guard let head = RequestHead(buffer[..<count], limit: buffer.count) else { return false }
        heads[wsi] = head
        return true
    }
}
