import KeyscopeCore
import KeyscopeInspector
import KeyscopeLws
import KeyscopeProtocol

/// WebSocket connections: the upgrade checks, the session's stream, and requests from the client.
extension ServerCore {
    /// lws asks before upgrading: refuse with a real HTTP status (403, 401, 404) rather than a dropped socket.
    /// Returning 1 tells lws the response was written here.
    func confirmUpgrade(_ wsi: LwsConnection) -> Int32 {
        let request = LwsRequest(wsi)
        var refused = upgradeRefusal(request)
        if refused == nil {
            let served = featureStream(request)
            refused = served.refusal
            upgradedStreams[wsi] = served.stream
        }
        guard let refused else { return 0 }
        LwsResponse.write(wsi, raw: refused.rawResponse)
        return 1
    }

    /// A client is in: hello, then its snapshot, made on the worker (or, resuming with `?resume=SEQ`, the entries
    /// after SEQ).
    func established(_ wsi: LwsConnection) -> Int32 {
        guard !stopping else { return -1 }
        limitSendBuffer(wsi)
        let request = LwsRequest(wsi)
        let session: WebSocketSession
        if let stream = upgradedStreams.removeValue(forKey: wsi) {
            session = establish(wsi, stream: stream)
        } else if let resume = request.query("resume").flatMap(Int.init), resume >= 0 {
            session = WebSocketSession(
                wsi: wsi, cursor: hub.makeCursor(resumingAfter: resume), maxMessageBytes: options.maxMessageBytes)
            session.enqueue(ServerMessages.hello(name: options.name, readOnly: options.readOnly, resumed: true))
        } else {
            // A cursor whose first read would be a snapshot (no client resumes after seq -1); the worker makes it.
            let cursor = hub.makeCursor(resumingAfter: -1)
            session = WebSocketSession(wsi: wsi, cursor: cursor, maxMessageBytes: options.maxMessageBytes)
            session.enqueue(ServerMessages.hello(name: options.name, readOnly: options.readOnly, resumed: false))
            submitFirstSnapshot(for: session)
        }
        sessions[wsi] = session
        armStall(session, pushing: false)
        wsi.callbackOnWritable()
        return 0
    }

    /// A piece of a message: collected until the last fragment, within the size limit (1009 beyond it).
    func receive(_ wsi: LwsConnection, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let session = sessions[wsi] else { return 0 }
        // Once over the limit, the rest of the message (and anything after it) is ignored until the close goes
        // out from the writable callback: returning -1 here can crash lws 4.1 when more frames are buffered.
        guard !session.incoming.overLimit else { return 0 }
        switch session.incoming.receive(wsi, input, length) {
        case .partial:
            _ = heldReads.count(session)  // a message in many small pieces: the rest waits for the next turn
            return 0
        case .overLimit:
            wsi.callbackOnWritable()
            return 0
        case .complete(let message, let binary):
            if let stream = session.stream, !binary {
                runOnStream(message, for: session, stream: stream)  // a feature's client: its stream answers
            } else {
                submit(message, binary: binary, for: session)
            }
        }
        // lws hands over every frame of one read (up to 64 KiB, over a thousand small requests) in a row: past a
        // few per turn, the rest waits for this client's next writable callback, so that one client sending
        // requests as fast as it can leaves the others (and new connections) their turn.
        session.requestsThisTurn += 1
        if readingMustPause(session) { session.reading.setPaused(true, on: wsi) }
        armStall(session, pushing: false)
        wsi.callbackOnWritable()
        return 0
    }

    /// The socket can take more: one message per call (lws's rule), and ask again while there is more.
    func writable(_ wsi: LwsConnection) -> Int32 {
        guard let session = sessions[wsi] else { return 0 }
        session.requestsThisTurn = 0
        resumeReadingIfAllowed(session)
        if session.incoming.overLimit { return WebSocketClose.messageTooLarge(wsi, limit: options.maxMessageBytes) }
        if session.closing { return WebSocketClose.goingAway(wsi) }
        guard var message = session.nextMessage(maxEntries: Self.frameEntries, maxBytes: Self.frameBytes) else {
            if session.needsCatchUp {
                session.needsCatchUp = false
                submitCatchUp(for: session)
                return 0
            }
            writeAgainIfNeeded(session)
            settleStall(session)
            return 0
        }
        guard message.write(to: wsi) else { return -1 }
        session.recycle(&message.bytes)
        writeAgainIfNeeded(session)
        settleStall(session)
        return 0
    }
}
