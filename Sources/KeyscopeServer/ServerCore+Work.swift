import KeyscopeCore
import KeyscopeInspector
import KeyscopeLws
import KeyscopeProtocol

/// Requests run on the ``RequestWorker``, not on the service thread: the service thread hands a request over, goes on
/// serving everyone else, and queues the reply when the worker hands it back (waking the service thread with
/// `lws_cancel_service`). See docs/hardening.md, "Requests run off the service thread".
extension ServerCore {
    /// How many threads run requests: a client's long write holds one, and the other clients' requests run on the
    /// other (writes to one store take turns on its lock anyway, and the machine a debug tool runs on is often small).
    static let workerThreads = 2
    /// The most requests of one WebSocket client on the worker at once: past it, the client is not read until one
    /// comes back. It is not read either while its requests on the worker hold ``ServerOptions/maxMessageBytes``.
    static let requestsInFlightPerClient = 4
    /// The most jobs on the worker at once, over every client: past it, HTTP requests are answered 503 `unavailable`
    /// and WebSocket clients are not read until it has room.
    static let maxRequestsInFlight = 64
    /// Requests of more bytes are heavy (``RequestWorker``): they run on one of the worker's threads only. A flat
    /// object of 64 KiB has about 4,000 members and takes the hub some 15 ms.
    static let heavyRequestBytes = 64 << 10

    // MARK: Handing work over

    /// A whole message from a WebSocket client: run on the worker, its reply queued when it is back. A `resync`
    /// moves the cursor and makes its snapshot there: the client's stream waits while it has requests on the worker
    /// (``InFlightRequests/holdsStream``), so the snapshot comes after every entry already sent and the stream goes
    /// on right after it.
    func submit(_ message: [UInt8], binary: Bool, for session: WebSocketSession) {
        let executor = executor
        let cursor = session.cursor
        let heavy = message.count > Self.heavyRequestBytes
        submit(for: session, bytes: message.count) {
            guard !binary else {
                let error = HubError.badRequest("send requests as text frames holding one JSON object")
                return .messages([ServerMessages.reply(id: .null, error: error)])
            }
            let outcome = executor.execute(message, decoded: heavy ? FreedBlocks.merge : {})
            guard outcome.wantsResync else { return .messages([outcome.reply]) }
            let snapshot = cursor.resync()
            let reply = ServerMessages.reply(id: outcome.id, result: InspectorProtocol.seqResult(snapshot.seq))
            return .messages([snapshot.messageBytes(), reply])
        }
    }

    /// A new client's snapshot, made on the worker (a store of a few hundred thousand keys takes a fifth of a second
    /// to encode); its stream starts right after it.
    func submitFirstSnapshot(for session: WebSocketSession) {
        let cursor = session.cursor
        submit(for: session, bytes: 0) { .messages([cursor.resync().messageBytes()]) }
    }

    /// A client whose next read is a gap and a snapshot (the log's tail passed it), or a snapshot: that read, made
    /// on the worker (``HubCursor/next(maxEntries:maxBytes:)``); its stream goes on right after it.
    func submitCatchUp(for session: WebSocketSession) {
        let cursor = session.cursor
        submit(for: session, bytes: 0) {
            switch cursor.next(maxEntries: Self.frameEntries, maxBytes: Self.frameBytes) {
            case .gap(let from, let to, let snapshot)?:
                return .messages([HubMessages.gap(from: from, to: to), snapshot.messageBytes()])
            case .snapshot(let snapshot)?:
                return .messages([snapshot.messageBytes()])
            case .entries(let entries)?:
                return .messages([HubMessages.changes(entries)])  // not behind after all
            case nil:
                return .messages([])
            }
        }
    }

    private func submit(for session: WebSocketSession, bytes: Int, _ work: @escaping @Sendable () -> WorkReply) {
        if session.requests.client == 0 { session.requests.client = ledger.nextID() }
        let ticket = ledger.nextID()
        session.requests.count += 1
        session.requests.bytes += bytes
        ledger.add(.webSocket(session, bytes: bytes), ticket: ticket)
        worker.submit(ticket: ticket, client: session.requests.client, heavy: bytes > Self.heavyRequestBytes, work)
    }

    /// Runs a route's handler on the worker, its JSON body decoded there too; the answer is written once it is back
    /// (``httpWritable(_:)``), and the connection waits until then. Returns what the lws callback returns.
    func submit(_ wsi: LwsConnection, _ route: ServerRoute, _ call: ServerRoute.Call, body: [UInt8]) -> Int32 {
        guard ledger.count < Self.maxRequestsInFlight else {
            return LwsResponse.error(
                wsi, status: 503, code: "unavailable",
                message: "the server is running its limit of \(Self.maxRequestsInFlight) requests at once; retry "
                    + "shortly",
                headers: [("Retry-After", "1")])
        }
        let ticket = ledger.nextID()
        ledger.add(.http(wsi, bytes: body.count), ticket: ticket)
        // lws would drop a request without a body whose answer is not written within its timeout (10 s): the
        // connection waits as long as its request runs (a snapshot of a million keys takes a debug build longer).
        wsi.clearTimeout()
        let maxDepth = options.maxJSONDepth
        // The job holds the core: built-in routes reach it unowned.
        worker.submit(ticket: ticket, client: ticket, heavy: body.count > Self.heavyRequestBytes) { [self] in
            withExtendedLifetime(self) {
                let answer = Self.run(route, call, body: body, maxDepth: maxDepth)
                guard case .later(let start) = answer else { return .answer(answer) }
                // The route answers from another thread (a fleet dashboard waits for an instance): the connection
                // waits for that answer, and no worker thread does.
                let worker = worker
                start { final in worker.finishLater(ticket: ticket, reply: .answer(final)) }
                return .later
            }
        }
        return 0
    }

    /// A route's handler with its body read as the route asks (on the worker).
    private static func run(_ route: ServerRoute, _ call: ServerRoute.Call, body: [UInt8], maxDepth: Int)
        -> ServerRoute.Answer
    {
        var call = call
        switch route.body {
        case .bytes:
            call.bytes = body
        case .json, .optionalJSON:
            do throws(HubError) {
                call.json = try jsonBody(body, maxDepth: maxDepth)
            } catch {
                return .error(error)
            }
            if body.count > heavyRequestBytes { FreedBlocks.merge() }
        case .none:
            break
        }
        return route.run(call)
    }

    // MARK: Taking replies back

    /// Queues what the worker finished for its clients (on the service thread, when the worker woke it). A client
    /// that closed meanwhile is not there any more: its reply is dropped (its write applied or not, as it would have).
    func deliverFinishedWork() {
        for (ticket, reply) in worker.takeFinished() {
            if case .later = reply { continue }  // its answer comes under the same ticket
            switch (ledger.remove(ticket), reply) {
            case (.webSocket(let session, let bytes)?, .messages(let messages)):
                session.requests.count -= 1
                session.requests.bytes -= bytes
                guard sessions[session.wsi] === session else { continue }
                for message in messages { session.enqueue(message) }
                armStall(session, pushing: false)
                session.wsi.callbackOnWritable()
            case (.http(let wsi, _)?, .answer(let answer)):
                guard ledger.httpTickets[wsi] == ticket else { continue }
                ledger.httpAnswers[wsi] = answer
                wsi.callbackOnWritable()
            default:
                continue
            }
        }
        guard ledger.count < Self.maxRequestsInFlight, !ledger.waitingForRoom.isEmpty else { return }
        let waiting = ledger.waitingForRoom.values
        ledger.waitingForRoom = [:]
        for session in waiting where sessions[session.wsi] === session { resumeReadingIfAllowed(session) }
    }

    /// An HTTP connection can take its answer (`LWS_CALLBACK_HTTP_WRITEABLE`): the one back from the worker, if any.
    func httpWritable(_ wsi: LwsConnection) -> Int32? {
        guard let answer = ledger.httpAnswers.removeValue(forKey: wsi) else { return nil }
        ledger.httpTickets[wsi] = nil
        return self.answer(wsi, answer)
    }

    // MARK: Reading WebSocket clients

    /// After a message: whether the client must not be read for now. Its outbox is full, it had its requests for
    /// this turn, it has its most requests (or bytes) on the worker, or the worker has its most jobs.
    func readingMustPause(_ session: WebSocketSession) -> Bool {
        if ledger.count >= Self.maxRequestsInFlight {
            ledger.waitingForRoom[ObjectIdentifier(session)] = session
            return true
        }
        return session.queuedBytes > Self.maxQueuedBytes || session.queuedCount >= Self.maxQueuedMessages
            || session.requestsThisTurn >= Self.requestsPerTurn
            || session.requests.count >= Self.requestsInFlightPerClient
            || session.requests.bytes >= options.maxMessageBytes
    }

    /// Reads a paused client again once half its outbox went out and it and the worker have room. A client that waits
    /// only for the worker's room is woken when a job comes back (``deliverFinishedWork()``).
    func resumeReadingIfAllowed(_ session: WebSocketSession) {
        guard session.reading.isPaused,
            session.queuedBytes <= Self.maxQueuedBytes / 2, session.queuedCount < Self.maxQueuedMessages / 2,
            session.requests.count < Self.requestsInFlightPerClient,
            session.requests.bytes < options.maxMessageBytes
        else { return }
        guard ledger.count < Self.maxRequestsInFlight else {
            ledger.waitingForRoom[ObjectIdentifier(session)] = session
            return
        }
        session.reading.setPaused(false, on: session.wsi)
    }
}
