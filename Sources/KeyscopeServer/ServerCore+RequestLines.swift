import KeyscopeInspector
import KeyscopeLws
import KeyscopeProtocol
import Logging

/// The request line as sent, before lws parses it (see ``RequestHeadCapture``): kept for the routes that read the
/// path as sent (``KeyscopeInspector/FeatureRoute/PathForm/asSent(advice:)``), and a path under them that cannot be
/// decoded refused at once, while lws could still mangle it.
extension ServerCore {
    /// Hands the capture's ``KeyscopeLws/ReadinessWatch`` to lws as a raw file descriptor, so that lws's own poll
    /// tells when a held connection has news (`.rawFileReadable`). Called once, when the context exists.
    func adoptCaptureWatch(_ vhost: LwsVhost) {
        let watch = requestLines.watch
        guard watch.isValid else {
            logger.warning(
                "no readiness watch for request lines: routes that read the path as sent get the decoded one")
            return
        }
        let adopted = watch.adopt(into: vhost)
        captureWatchWSI = adopted
        if adopted == nil {
            logger.warning("lws refused the readiness watch: routes that read the path as sent get the decoded one")
        }
    }

    /// Whether `wsi` is the capture's watch (not a client connection).
    func isCaptureWatch(_ wsi: LwsConnection) -> Bool { wsi == captureWatchWSI }

    /// lws accepted a connection (`.accepted`).
    func accepted(_ wsi: LwsConnection) {
        guard admit(wsi) else { return }
        if requestLines.accepted(wsi) { screen(wsi) }
    }

    /// The watch's descriptor is readable (`.rawFileReadable`): held connections sent more.
    func captureWatchReadable() {
        for wsi in requestLines.watchReported() { screen(wsi) }
    }

    /// Whether the connection's lws timer is the server's (the one that closes a connection ``screen(_:)``
    /// refused; the server sets no other).
    func ownsTimer(of wsi: LwsConnection) -> Bool {
        refusedEarly.contains(wsi)
    }

    /// A connection's timer fired (`.timer`); -1 closes a connection refused by ``screen(_:)``.
    func timerFired(_ wsi: LwsConnection) -> Int32 {
        refusedEarly.remove(wsi) != nil ? -1 : 0
    }

    /// The connection is gone (`.wsiDestroy`).
    func destroyed(_ wsi: LwsConnection) {
        requestLines.forget(wsi)
        refusedEarly.remove(wsi)
        connectionClosed(wsi)
        if wsi == captureWatchWSI { captureWatchWSI = nil }
    }

    /// Refuses, before lws parses it, a request that lws would mangle or drop without a word: a head over the header
    /// limit or with more extension offers than lws takes (431 `too_large`), and a path under a route that reads it
    /// as sent whose segments do not decode (a bad escape such as `%zz`, a control character such as `%0A`, bytes
    /// that are not UTF-8: 400 `bad_request`; lws would answer a bad escape with its own HTML 403 and cut the line at
    /// a decoded line break). Like lws's own refusals, this comes before the Host and token checks. The socket is
    /// held (lws reads no more of it) and closed from its timer.
    private func screen(_ wsi: LwsConnection) {
        guard let head = requestLines.head(wsi) else { return }
        let refusal: Refusal
        if head.isTooLarge {
            refusal = Self.headersTooLarge(options.maxHeaderBytes)
        } else if head.extensionOffersLength > ExtensionOffers.maxBytes {
            refusal = Refusal(
                status: 431, code: "too_large",
                message: "the Sec-WebSocket-Extensions offers are over \(ExtensionOffers.maxBytes) bytes; the "
                    + "server takes no extension, so send none")
        } else if let problem = head.lineProblem ?? head.targetProblem {
            refusal = Refusal(status: 400, code: "bad_request", message: problem)
        } else if let line = head.line.flatMap(RawRequestLine.init), let error = routeTable().undecodableSegment(line) {
            refusal = Refusal(status: 400, code: error.code.rawValue, message: error.message)
        } else {
            return
        }
        refuseEarly(wsi, refusal)
    }

    /// Answers a connection before lws parsed its request, then holds it until its timer closes it.
    func refuseEarly(_ wsi: LwsConnection, _ refusal: Refusal) {
        RawRefusal.send(wsi, refusal)
        wsi.setReceiving(false, immediately: true)
        refusedEarly.insert(wsi)
        connections.advance(wsi, to: .answering)
        wsi.setTimer(microseconds: 1)
    }

    /// 431 for a request head over the limit.
    static func headersTooLarge(_ limit: Int) -> Refusal {
        Refusal(
            status: 431, code: "too_large",
            message: "the request line and headers are over the server's limit of \(limit) bytes")
    }
}
