import KeyscopeLws

/// What the ``RequestWorker`` hands back for one job.
enum WorkReply: Sendable {
    /// For a WebSocket client, in order: a snapshot (a `resync`'s, or a new client's first) and its reply.
    case messages([[UInt8]])
    /// The answer to an HTTP request.
    case answer(ServerRoute.Answer)
    /// The job's route answers later (``ServerRoute/Answer/later(_:)``): its answer comes through
    /// ``RequestWorker/finishLater(ticket:reply:)`` under the same ticket.
    case later
}

/// The requests of one WebSocket client that are on the worker. While there are any, the client's stream of log
/// entries waits (its replies still go out): a `resync` moves the cursor on the worker, and no entry may go out
/// between that and its snapshot.
struct InFlightRequests {
    /// Requests (and the first snapshot) submitted whose reply is not back yet.
    var count = 0
    /// Their bytes, as received.
    var bytes = 0
    /// The client's key on the worker (0 until its first job): its jobs run one at a time, in order.
    var client: UInt64 = 0

    /// Whether the client's stream of log entries waits for its requests.
    var holdsStream: Bool { count > 0 }
}

/// The service thread's side of the ``RequestWorker``: who waits for which job, the HTTP answers back from it, and
/// the WebSocket clients not read until it has room. Touched only by the service thread.
struct WorkLedger {
    /// Whom a job's reply is for.
    enum Waiter {
        case webSocket(WebSocketSession, bytes: Int)
        case http(LwsConnection, bytes: Int)
    }

    private var waiters: [UInt64: Waiter] = [:]
    private var lastID: UInt64 = 0
    /// The HTTP connections whose request is on the worker, with its ticket (a connection closed meanwhile is gone
    /// from here, so that its reply is dropped even when lws reuses the pointer for a newer connection).
    var httpTickets: [LwsConnection: UInt64] = [:]
    /// Answers back from the worker, written at their connection's next writable callback.
    var httpAnswers: [LwsConnection: ServerRoute.Answer] = [:]
    /// Bytes of HTTP bodies on the worker: they count against the server's body budget as bodies being received do.
    private(set) var httpBodyBytes = 0
    /// WebSocket clients not read because the worker had its most jobs; woken once it has room.
    var waitingForRoom: [ObjectIdentifier: WebSocketSession] = [:]

    /// Jobs submitted whose reply was not taken back yet (a job of a closed connection included: it still runs).
    var count: Int { waiters.count }

    /// A new ticket or client key.
    mutating func nextID() -> UInt64 {
        lastID += 1
        return lastID
    }

    mutating func add(_ waiter: Waiter, ticket: UInt64) {
        waiters[ticket] = waiter
        if case .http(let wsi, let bytes) = waiter {
            httpTickets[wsi] = ticket
            httpBodyBytes += bytes
        }
    }

    /// The job is back: whom it was for.
    mutating func remove(_ ticket: UInt64) -> Waiter? {
        guard let waiter = waiters.removeValue(forKey: ticket) else { return nil }
        if case .http(_, let bytes) = waiter { httpBodyBytes -= bytes }
        return waiter
    }

    /// The HTTP connection closed: its request's reply, when it comes, is dropped.
    mutating func forget(_ wsi: LwsConnection) {
        httpTickets[wsi] = nil
        httpAnswers[wsi] = nil
    }
}
