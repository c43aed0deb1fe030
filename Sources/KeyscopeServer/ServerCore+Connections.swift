import KeyscopeLws
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one client may cost: the cap on open connections (``ServerOptions/maxConnections``), the bytes of request
/// bodies held at once (``ServerOptions/maxBufferedBodyBytes``), and how long a WebSocket client may leave a message
/// untaken (``ServerOptions/stalledClientTimeout``). See docs/hardening.md, "Limits".
extension ServerCore {
    /// The timeout reason (``KeyscopeLws/LwsConnection/setTimeout(seconds:reason:)``) of a WebSocket client that
    /// stopped taking what it is sent.
    static let stalledReason = 1

    /// Admits a connection lws just accepted, making room or refusing it past the cap. False when it is refused
    /// (answered 503 and closing).
    func admit(_ wsi: LwsConnection) -> Bool {
        switch connections.admit(wsi) {
        case .admitted:
            return true
        case .evict(let older):
            reportCapReached()
            shut(
                older,
                Refusal(
                    status: 503, code: "unavailable",
                    message: "the server has its maximum of \(connections.capacity) connections open and this one "
                        + "had not sent its request: it made room for a newer one; retry"))
            return true
        case .refuse:
            reportCapReached()
            shut(
                wsi,
                Refusal(
                    status: 503, code: "unavailable",
                    message: "the server has its maximum of \(connections.capacity) connections open, all of them "
                        + "busy; retry shortly (or start it with a higher --max-connections)"))
            return false
        }
    }

    /// Answers a connection that has not been answered yet, straight on its socket, and has lws close it at its
    /// next turn.
    private func shut(_ wsi: LwsConnection, _ refusal: Refusal) {
        requestLines.forget(wsi)
        bodies[wsi] = nil
        RawRefusal.send(wsi, refusal)
        wsi.closeSoon()
    }

    /// Says once per episode in the host's log that the cap was reached (an attack would otherwise flood it); the
    /// episode ends when the connections fall to half the cap.
    private func reportCapReached() {
        guard !capReported else { return }
        capReported = true
        let text =
            "the inspector has \(connections.capacity) connections open (its --max-connections): new ones push out "
            + "those that have not sent their request, or are refused with 503 when none is waiting"
        logger.warning("\(text)")
    }

    /// A connection is gone: the cap episode ends once the count is low again.
    func connectionClosed(_ wsi: LwsConnection) {
        connections.remove(wsi)
        if capReported, connections.liveCount <= connections.capacity / 2 { capReported = false }
    }

    // MARK: Bodies

    /// Bytes of request bodies held by the server right now, over every connection: those being received and those
    /// whose request is on the worker.
    var bufferedBodyBytes: Int { bodies.values.reduce(0) { $0 + $1.bytes.count } + ledger.httpBodyBytes }

    /// The most body bytes held at once: ``ServerOptions/maxBufferedBodyBytes``, never below one whole body.
    var bodyBudget: Int { max(options.maxBufferedBodyBytes, options.maxBodyBytes) }

    /// Whether `more` bytes of body may be held beside those already held.
    func bodyBudgetAllows(_ more: Int) -> Bool {
        bufferedBodyBytes + more <= bodyBudget
    }

    /// 503: too many bodies arrive at once; the connection closes (the rest of the body is not read).
    func bodiesBusy(_ wsi: LwsConnection) -> Int32 {
        bodies[wsi] = nil
        return LwsResponse.error(
            wsi, status: 503, code: "unavailable",
            message: "the server holds its limit of \(bodyBudget) bytes of request bodies being received at once; "
                + "retry shortly",
            headers: [("Retry-After", "1")])
    }

    // MARK: WebSocket clients that stop reading

    /// The kernel's send buffer of a WebSocket client: fixed at ``webSocketSendBuffer`` rather than grown by the
    /// kernel (up to 4 MiB on Linux), so that what a client that does not read can have in flight is small, and
    /// it is dropped soon after it stops reading (``armStall(_:pushing:)``). Loopback and LAN clients still get full speed from it.
    func limitSendBuffer(_ wsi: LwsConnection) {
        let fd = wsi.socketDescriptor
        guard fd >= 0 else { return }
        var size = Int32(Self.webSocketSendBuffer)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// See ``limitSendBuffer(_:)``.
    static let webSocketSendBuffer = 256 << 10

    /// Gives a WebSocket client ``ServerOptions/stalledClientTimeout`` to take what waits for it, or lws drops the
    /// connection: armed when something is queued for it, pushed back each time its socket takes something
    /// (`pushing`, from the writable callback; at most once a second, the deadline's resolution), lifted when
    /// nothing waits. A client that reads, however slowly, is never dropped; one that stopped is, after the timeout,
    /// whether it sends requests or only has the stream waiting.
    func armStall(_ session: WebSocketSession, pushing: Bool) {
        let now = ContinuousClock.now
        if let armed = session.stallArmedAt, !pushing || now - armed < .seconds(1) { return }
        session.stallArmedAt = now
        let seconds = Int(clamping: max(1, options.stalledClientTimeout.components.seconds))
        session.wsi.setTimeout(seconds: seconds, reason: Self.stalledReason)
    }

    /// After a writable callback: the deadline moves on while something still waits, else it is lifted.
    func settleStall(_ session: WebSocketSession) {
        if session.wantsToWrite || session.wsi.hasBufferedOutput {
            armStall(session, pushing: true)
        } else if session.stallArmedAt != nil {
            session.stallArmedAt = nil
            session.wsi.clearTimeout()
        }
    }
}
