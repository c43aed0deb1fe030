import KeyscopeLws

/// WebSocket clients whose socket is not read for the rest of a turn of the service loop, because they handed over
/// ``piecesPerTurn`` pieces of a message in it: the loop reads them again once the turn is over.
///
/// lws hands over every frame of one read in a row, and a read of 64 KiB holds over 9,000 one-byte fragments: a
/// message sent in a million of them kept the service thread on one client for 20 ms at a time, and `/api/health`
/// waited 37 ms at the median, 94 at worst (issue 23). Unlike requests, which wait for the client's writable
/// callback (it owes the client their replies), pieces of a message are let through again at the next turn: a
/// client that sends a long message before it reads anything is never writable meanwhile.
///
/// ```swift
/// if core.heldReads.count(session) { /* paused until the turn ends */ }   // per piece received
/// core.releaseHeldReads()                                                 // after each lws_service (serviced())
/// ```
/// Touched only by the service thread.
struct HeldReads {
    /// The most pieces of a message one client may hand over in one turn. A message sent whole, or in pieces of a
    /// few KiB (a 4 MiB one comes in pieces of up to 64 KiB), is never held back by it.
    static let piecesPerTurn = 256

    private var held: [WebSocketSession] = []
    private var pieces: [ObjectIdentifier: Int] = [:]

    /// Counts one piece `session` handed over in this turn; past ``piecesPerTurn`` pauses its reading until the turn
    /// ends and returns true.
    mutating func count(_ session: WebSocketSession) -> Bool {
        let counted = pieces[ObjectIdentifier(session), default: 0] + 1
        pieces[ObjectIdentifier(session)] = counted
        guard counted >= Self.piecesPerTurn, !session.reading.isPaused else { return false }
        session.reading.setPaused(true, on: session.wsi)
        held.append(session)
        return true
    }

    /// Ends the turn: the counts start again, and the sessions held are returned for their reading to resume.
    mutating func endTurn() -> [WebSocketSession] {
        if !pieces.isEmpty { pieces.removeAll(keepingCapacity: true) }
        guard !held.isEmpty else { return [] }
        defer { held.removeAll(keepingCapacity: true) }
        return held
    }
}

extension ServerCore {
    /// After each turn of the service loop: clients held by ``HeldReads`` are read again, unless they are still
    /// open with a full outbox or their most requests on the worker (which their writable callback resumes), or
    /// closed meanwhile.
    func releaseHeldReads() {
        for session in heldReads.endTurn() where sessions[session.wsi] === session {
            resumeReadingIfAllowed(session)
        }
    }
}
