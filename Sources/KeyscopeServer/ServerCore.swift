import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeLws
import KeyscopeProtocol
import Logging
import Synchronization

/// The server's state and its lws callback. Everything here runs on the service thread, inside `lws_service`,
/// except ``requestStop()`` and ``forceFinish()``, which other threads call, ``waker``, which the hub's append
/// signal and the ``worker`` hold (they touch only atomics and the one lws function that is safe from any thread,
/// `lws_cancel_service`), and the jobs handed to the ``worker`` (they read only its constants: hub, executor, options).
final class ServerCore: @unchecked Sendable {
    let hub: InspectorHub
    let options: ServerOptions
    let token: AccessToken
    let files: StaticFiles?
    let executor: RequestExecutor
    let logger: Logger
    /// Set once the listening port is known (it may have been 0).
    var policy: HostPolicy

    /// What other threads use to wake the service thread (the hook of the hub's append signal holds it).
    let waker: ServiceWaker
    /// Runs requests off the service thread (see `ServerCore+Work.swift`).
    let worker: RequestWorker<WorkReply>
    /// Set by ``requestStop()``. An atomic, not behind a lock: the service thread checks it on every wake-up, and
    /// taking a lock there made it wait on a writer's `lws_cancel_service` in every burst of changes.
    let stopRequested = Atomic<Bool>(false)
    /// Set when clients took too long to close: the service loop ends at its next turn regardless.
    let forcedFlag = Atomic<Bool>(false)

    // Service thread only.
    var sessions: [LwsConnection: WebSocketSession] = [:]
    /// Streams features chose at the upgrade's checks, until the connection is established (or closes).
    var upgradedStreams: [LwsConnection: any FeatureStream] = [:]
    /// Answers for sessions, from other threads (``deliver(_:to:)``); any thread, under its lock.
    let deliveries = Mutex<[(serial: UInt64, messages: [[UInt8]])]>([])
    /// Clients not read for the rest of this turn of the service loop (see ``HeldReads``).
    var heldReads = HeldReads()
    /// Who waits for which job of the worker.
    var ledger = WorkLedger()
    /// The request bodies being received, with the route each is for.
    var bodies: [LwsConnection: PendingBody] = [:]
    /// The route table and how many features it was made from (see ``routeTable()``).
    var routes: (featureCount: Int, table: RouteTable)?
    /// Each connection's request line as the client sent it (lws hands over only a decoded path).
    var requestLines: RequestHeadCapture
    /// The capture's readiness watch as lws polls it (a raw file wsi); `nil` before the context exists.
    var captureWatchWSI: LwsConnection?
    /// Every client connection, its stage, and who makes room past ``ServerOptions/maxConnections``.
    var connections: ConnectionTable<LwsConnection>
    /// Set while the connection cap is reached (said once in the log per episode).
    var capReported = false
    /// Connections answered before lws parsed their request (see ``screen(_:)``), closed from their timer.
    var refusedEarly: Set<LwsConnection> = []
    var stopping = false
    /// Set once the log said the public directory is gone; cleared when a file is served again.
    var missingFilesReported = false
    /// The service loop ends once this is set.
    var finished = false

    /// The most log entries and bytes one `changes` frame carries.
    static let frameEntries = 10_000
    static let frameBytes = 256 << 10
    /// The most bytes of replies and snapshots queued for one WebSocket client before the server stops reading its
    /// requests (until half of them went out): a client that asks and never reads cannot grow the server's memory.
    static let maxQueuedBytes = 4 << 20
    /// The most requests one WebSocket client gets run between two of its writable callbacks (one turn of the
    /// service loop): the rest of what it sent waits, unread, while other clients and connections have their turn.
    static let requestsPerTurn = 4
    /// The most replies and snapshots queued for one WebSocket client before the server stops reading its requests
    /// (until half went out): with small replies, ``maxQueuedBytes`` alone would let a client that never reads have
    /// thousands of snapshots made for it.
    static let maxQueuedMessages = 64

    init(hub: InspectorHub, options: ServerOptions, token: AccessToken, files: StaticFiles?, logger: Logger) {
        self.hub = hub
        self.options = options
        self.token = token
        self.files = files
        self.logger = logger
        self.executor = RequestExecutor(hub: hub, readOnly: options.readOnly, maxJSONDepth: options.maxJSONDepth)
        let waker = ServiceWaker()
        self.waker = waker
        self.worker = RequestWorker(threads: Self.workerThreads, nice: options.serviceThreadNice, logger: logger) {
            waker.cancelServiceWait()
        }
        self.requestLines = RequestHeadCapture(maxHeaderBytes: options.maxHeaderBytes)
        self.connections = ConnectionTable(capacity: options.maxConnections)
        self.policy = HostPolicy(
            port: options.port, extraHosts: options.allowedHosts, extraOrigins: options.allowedOrigins)
    }

    // MARK: Other threads

    /// Asks the service thread to close every client (1001) and end its loop.
    func requestStop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        waker.cancelServiceWait()
    }

    /// Ends the service loop even though clients are still closing.
    func forceFinish() {
        forcedFlag.store(true, ordering: .sequentiallyConsistent)
        waker.cancelServiceWait()
    }

    var forced: Bool { forcedFlag.load(ordering: .sequentiallyConsistent) }

    // MARK: The service thread's hooks

    /// The settings of the service thread's context.
    var serviceSettings: LwsServiceThread.Settings {
        // Text that is not UTF-8 is left to the JSON parser (a bad request never closes the connection, see
        // docs/protocol.md), so lws does not validate it.
        var settings = LwsServiceThread.Settings(
            host: options.host, port: options.port, protocolName: InspectorProtocol.subprotocol,
            maxHeaderBytes: options.maxHeaderBytes,
            headerTimeoutSeconds: Int(options.headerTimeout.components.seconds))
        settings.nice = options.serviceThreadNice
        return settings
    }

    // MARK: The lws callback

    /// Every event of the context's connections (``KeyscopeLws/LwsCallbackHandler``); `nil` leaves it to lws.
    func handle(_ event: LwsEvent, on wsi: LwsConnection, input: UnsafeMutableRawPointer?, length: Int) -> Int32? {
        switch event {
        case .accepted:
            accepted(wsi)
            return nil
        case .timer where ownsTimer(of: wsi):
            return timerFired(wsi)
        case .wsiDestroy:
            upgradedStreams[wsi] = nil
            destroyed(wsi)
            ledger.forget(wsi)
            return nil
        case .rawFileReadable where isCaptureWatch(wsi):
            captureWatchReadable()
            return 0
        case .http:
            let result = http(wsi)
            // Waiting for its body, the request is not complete yet: it may still make room for newer ones.
            if bodies[wsi] == nil { connections.advance(wsi, to: .answering) }
            return result
        case .httpBody:
            return httpBody(wsi, input, length)
        case .httpBodyCompletion:
            connections.advance(wsi, to: .answering)
            return httpBodyCompleted(wsi)
        case .httpFileCompletion:
            return -1  // one request per connection (see LwsResponse.send)
        case .httpWriteable:
            return httpWritable(wsi)
        case .closedHTTP:
            bodies[wsi] = nil
            ledger.forget(wsi)
            return 0
        case .confirmUpgrade:
            _ = requestLines.take(wsi)  // a WebSocket: its request line is not needed
            return confirmUpgrade(wsi)
        case .filterProtocolConnection:
            // The upgrade was confirmed above; this is a second line in case lws skips the confirmation.
            return upgradeRefusal(LwsRequest(wsi)) == nil ? 0 : 1
        case .established:
            connections.advance(wsi, to: .webSocket)
            return established(wsi)
        case .receive:
            return receive(wsi, input, length)
        case .serverWriteable:
            return writable(wsi)
        case .closed:
            sessions[wsi] = nil
            if stopping && !hasClients { finished = true }
            return 0
        case .eventWaitCancelled:
            wokenUp()
            return 0
        default:
            return nil
        }
    }

    // MARK: Wake-ups and shutdown

    private func wokenUp() {
        // The hub's append signal stays raised: writable callbacks find new entries by themselves, so writers need
        // not wake the service (a syscall each) until a client runs dry and re-arms it (see `writeAgainIfNeeded`).
        if !stopping, stopRequested.load(ordering: .sequentiallyConsistent) { beginStop() }
        takeDeliveries()
        deliverFinishedWork()
        for session in sessions.values { session.wsi.callbackOnWritable() }
    }

    /// After a writable callback: another while the client has more to send. Otherwise the client is dry, and the
    /// next append must wake the service again: re-arm the hub's append signal, then look once more, since an entry
    /// appended while it was still raised woke nobody. A client whose stream waits for its requests is not dry:
    /// their replies wake it.
    func writeAgainIfNeeded(_ session: WebSocketSession) {
        if !session.wantsToWrite {
            guard !session.requests.holdsStream else { return }
            hub.appendSignal.rearm()
            guard session.wantsToWrite else { return }
        }
        session.wsi.callbackOnWritable()
    }

    private func beginStop() {
        stopping = true
        for session in sessions.values { session.closing = true }
        if !hasClients { finished = true }
    }

    /// Whether any WebSocket client is still connected.
    var hasClients: Bool { !sessions.isEmpty }

    // MARK: Checks shared by HTTP and upgrades

    /// The Host rule (checked before anything else): `nil` when the request may go on.
    func hostRefusal(_ request: LwsRequest) -> Refusal? { policy.hostRefusal(request) }

    /// The Origin rule, for upgrades and non-GET requests: only a request that has an Origin is checked.
    func originRefusal(_ request: LwsRequest) -> Refusal? { policy.originRefusal(request) }

    /// Whether the request carries this server's token.
    func authorized(_ request: LwsRequest) -> Bool {
        guard let presented = request.presentedToken else { return false }
        return token.matches(presented.utf8)
    }

    /// Every rule an upgrade must pass, in order: Host, Origin, its path, the token and the extension offers lws can
    /// answer. `nil` when it may go on.
    func upgradeRefusal(_ request: LwsRequest) -> Refusal? {
        if let refused = hostRefusal(request) ?? originRefusal(request) { return refused }
        guard request.methodAndPath?.path == InspectorProtocol.webSocketPath else {
            return Refusal(
                status: 404, code: "not_found", message: "the WebSocket endpoint is \(InspectorProtocol.webSocketPath)")
        }
        return authorized(request) ? ExtensionOffers.refusal(request) : .unauthorized
    }
}
