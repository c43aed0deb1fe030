import CLibWebSockets
import Foundation
import KeyscopeCore
import KeyscopeInspector
import Logging
import Synchronization

/// The server's state and its lws callback. Everything here runs on the service thread, inside `lws_service`,
/// except ``requestStop()`` and ``forceFinish()``, which other threads call, and ``waker``, which the hub's append
/// hook holds (they touch only atomics and the one lws function that is safe from any thread, `lws_cancel_service`).
final class ServerCore: @unchecked Sendable {
    let hub: InspectorHub
    let options: ServerOptions
    let token: AccessToken
    let files: StaticFiles?
    let executor: RequestExecutor
    let logger: Logger
    /// Set once the listening port is known (it may have been 0).
    var policy: HostPolicy

    /// What other threads use to wake the service thread (the hub's append hook holds it).
    let waker = ServiceWaker()
    /// Set by ``requestStop()``. An atomic, not behind a lock: the service thread checks it on every wake-up, and
    /// taking a lock there made it wait on a writer's `lws_cancel_service` in every burst of changes.
    let stopRequested = Atomic<Bool>(false)
    /// Set when clients took too long to close: the service loop ends at its next turn regardless.
    let forcedFlag = Atomic<Bool>(false)

    // Service thread only.
    var sessions: [OpaquePointer: WebSocketSession] = [:]
    /// Clients not read for the rest of this turn of the service loop (see ``HeldReads``).
    var heldReads = HeldReads()
    /// The conformance echo's connections (``ServerOptions/conformanceEcho``), and the protocol name lws reads
    /// (set by the service thread for the context's life).
    var echoSessions: [OpaquePointer: EchoSession] = [:]
    var echoSubprotocol: UnsafeMutablePointer<CChar>?
    /// The request bodies being received (`POST /api/request`, `POST /tune`, `PUT /api/preferences/…`, the
    /// refreshes), with what each is for.
    var bodies: [OpaquePointer: PendingBody] = [:]
    /// Each connection's request line as the client sent it (lws hands over only a decoded path).
    var requestLines: RequestLineCapture
    /// The capture's readiness watch as lws polls it (a raw file wsi); `nil` before the context exists.
    var captureWatchWSI: OpaquePointer?
    /// Every client connection, its stage, and who makes room past ``ServerOptions/maxConnections``.
    var connections: ConnectionTable<OpaquePointer>
    /// Set while the connection cap is reached (said once in the log per episode).
    var capReported = false
    /// Connections answered before lws parsed their request (see ``screen(_:)``), closed from their timer.
    var refusedEarly: Set<OpaquePointer> = []
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
        self.requestLines = RequestLineCapture(maxHeaderBytes: options.maxHeaderBytes)
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

    // MARK: The lws callback

    func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
        _ input: UnsafeMutableRawPointer?, _ length: Int
    ) -> Int32 {
        if options.conformanceEcho, let answer = handleEcho(wsi, reason, input, length) {
            if reason == LWS_CALLBACK_ESTABLISHED { connections.advance(wsi, to: .webSocket) }
            if reason == LWS_CALLBACK_HTTP { connections.advance(wsi, to: .answering) }
            return answer
        }
        switch reason {
        case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED:
            accepted(wsi)
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        case LWS_CALLBACK_TIMER where ownsTimer(of: wsi):
            return timerFired(wsi)
        case LWS_CALLBACK_WSI_DESTROY:
            destroyed(wsi)
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        case LWS_CALLBACK_RAW_RX_FILE where isCaptureWatch(wsi):
            captureWatchReadable()
            return 0
        case LWS_CALLBACK_HTTP:
            let result = http(wsi)
            // Waiting for its body, the request is not complete yet: it may still make room for newer ones.
            if bodies[wsi] == nil { connections.advance(wsi, to: .answering) }
            return result
        case LWS_CALLBACK_HTTP_BODY:
            return httpBody(wsi, input, length)
        case LWS_CALLBACK_HTTP_BODY_COMPLETION:
            connections.advance(wsi, to: .answering)
            return httpBodyCompleted(wsi)
        case LWS_CALLBACK_HTTP_FILE_COMPLETION:
            return -1  // one request per connection (see LwsResponse.send)
        case LWS_CALLBACK_CLOSED_HTTP:
            bodies[wsi] = nil
            return 0
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            _ = requestLines.take(wsi)  // a WebSocket: its request line is not needed
            return confirmUpgrade(wsi)
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            // The upgrade was confirmed above; this is a second line in case lws skips the confirmation.
            return upgradeRefusal(LwsRequest(wsi: wsi)) == nil ? 0 : 1
        case LWS_CALLBACK_ESTABLISHED:
            connections.advance(wsi, to: .webSocket)
            return established(wsi)
        case LWS_CALLBACK_RECEIVE:
            return receive(wsi, input, length)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            return writable(wsi)
        case LWS_CALLBACK_CLOSED:
            sessions[wsi] = nil
            if stopping && !hasClients { finished = true }
            return 0
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            wokenUp()
            return 0
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }

    /// The core serving a connection (through its context's user pointer).
    static func of(_ wsi: OpaquePointer) -> ServerCore? {
        guard let context = lws_get_context(wsi), let raw = lws_context_user(context) else { return nil }
        return Unmanaged<ServerCore>.fromOpaque(raw).takeUnretainedValue()
    }

    /// lws is dropping a request it could not parse (see ``LwsLogging``): say why before the socket closes.
    func answer(_ wsi: OpaquePointer, _ failure: LwsLogging.ParseFailure) {
        switch failure {
        case .tooLarge:
            RawRefusal.send(
                wsi,
                Refusal(
                    status: 431, code: "too_large",
                    message:
                        "the request line and headers are over the server's limit of \(options.maxHeaderBytes) bytes"))
        case .malformed:
            RawRefusal.send(
                wsi,
                Refusal(
                    status: 400, code: "bad_request",
                    message: "the request cannot be parsed (a bad escape such as %00, or a broken request line)"))
        case .answered:
            break
        }
    }

    // MARK: Wake-ups and shutdown

    private func wokenUp() {
        // The flag stays set: writable callbacks find new entries by themselves, so writers need not wake the
        // service (a syscall each) until a client runs dry and clears it (see `writeAgainIfNeeded`).
        if !stopping, stopRequested.load(ordering: .sequentiallyConsistent) { beginStop() }
        for session in sessions.values { lws_callback_on_writable(session.wsi) }
    }

    /// After a writable callback: another while the client has more to send. Otherwise the client is dry, and the
    /// next append must wake the service again: clear the flag, then look once more, since an entry appended while
    /// it was still set woke nobody.
    func writeAgainIfNeeded(_ session: WebSocketSession) {
        if !session.wantsToWrite {
            waker.pending.store(false, ordering: .sequentiallyConsistent)
            guard session.wantsToWrite else { return }
        }
        lws_callback_on_writable(session.wsi)
    }

    private func beginStop() {
        stopping = true
        for session in sessions.values { session.closing = true }
        for session in echoSessions.values {
            session.closing = true
            lws_callback_on_writable(session.wsi)
        }
        if !hasClients { finished = true }
    }

    /// Whether any WebSocket client is still connected.
    var hasClients: Bool { !sessions.isEmpty || !echoSessions.isEmpty }

    // MARK: Checks shared by HTTP and upgrades

    /// The Host rule (checked before anything else): `nil` when the request may go on.
    func hostRefusal(_ request: LwsRequest) -> Refusal? {
        switch policy.checkHost(request.values(WSI_TOKEN_HOST)) {
        case .allowed: nil
        case .forbidden(let message): Refusal(status: 403, code: "forbidden", message: message)
        case .malformed(let message): Refusal(status: 400, code: "bad_request", message: message)
        }
    }

    /// The Origin rule, for upgrades and non-GET requests: only a request that has an Origin is checked.
    func originRefusal(_ request: LwsRequest) -> Refusal? {
        guard let origin = request.value(WSI_TOKEN_ORIGIN), !policy.allowsOrigin(origin) else { return nil }
        return Refusal(
            status: 403, code: "forbidden",
            message: "Origin \"\(origin)\" may not use this server; open the dashboard from this server, or start it "
                + "with --allow-origin \(origin)")
    }

    /// Whether the request carries this server's token.
    func authorized(_ request: LwsRequest) -> Bool {
        guard let presented = request.presentedToken else { return false }
        return token.matches(presented.utf8)
    }

    /// Every rule an upgrade must pass, in order: Host, Origin, then for the inspector its path, the token and the
    /// extension offers lws can answer; for the conformance echo, the offers and a subprotocol list lws can read
    /// (adopting the first name, see ``adoptSubprotocol(_:)``). `nil` when it may go on.
    func upgradeRefusal(_ request: LwsRequest) -> Refusal? {
        if let refused = hostRefusal(request) ?? originRefusal(request) { return refused }
        if options.conformanceEcho { return ExtensionOffers.refusal(request) ?? adoptSubprotocol(request) }
        guard request.methodAndPath?.path == InspectorProtocol.webSocketPath else {
            return Refusal(
                status: 404, code: "not_found", message: "the WebSocket endpoint is \(InspectorProtocol.webSocketPath)")
        }
        return authorized(request) ? ExtensionOffers.refusal(request) : .unauthorized
    }
}
