import KeyscopeLws
import Synchronization

/// The echo's state and its lws callback. Everything here runs on the service thread, inside `lws_service`, except
/// ``requestStop()`` and ``forceFinish()``, which other threads call (they touch only atomics, a lock and
/// `lws_cancel_service`).
final class EchoCore: @unchecked Sendable {
    let options: EchoOptions
    /// The context while the service loop runs, for ``requestStop()``.
    private let context = Mutex<LwsContextHandle?>(nil)
    private let stopRequested = Atomic<Bool>(false)
    private let forcedFlag = Atomic<Bool>(false)

    // Service thread only.
    /// Set once the listening port is known (it may have been 0).
    var policy: HostPolicy
    var sessions: [LwsConnection: EchoSession] = [:]
    /// The protocol's name as lws reads it, rewritten before each upgrade (``adoptSubprotocol(_:)``).
    var subprotocol: UnsafeMutablePointer<CChar>?
    var stopping = false
    var finished = false

    init(options: EchoOptions) {
        self.options = options
        self.policy = HostPolicy(port: options.port, extraHosts: [], extraOrigins: [])
    }

    /// Asks the service thread to close every client (1001) and end its loop.
    func requestStop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        context.withLock { $0?.wake() }
    }

    /// Ends the service loop even though clients are still closing.
    func forceFinish() {
        forcedFlag.store(true, ordering: .sequentiallyConsistent)
        context.withLock { $0?.wake() }
    }

    /// Every event of the context's connections (``KeyscopeLws/LwsCallbackHandler``); `nil` leaves it to lws.
    func handle(_ event: LwsEvent, on wsi: LwsConnection, input: UnsafeMutableRawPointer?, length: Int) -> Int32? {
        switch event {
        case .http:
            let request = LwsRequest(wsi)
            if let refused = policy.hostRefusal(request) { return LwsResponse.refuse(wsi, refused) }
            return LwsResponse.error(
                wsi, status: 404, code: "not_found",
                message: "this is the conformance echo (KeyscopeConformanceEcho): it answers WebSocket upgrades only")
        case .confirmUpgrade:
            // A real HTTP status rather than a dropped socket; 1 tells lws the response was written here.
            guard let refused = upgradeRefusal(LwsRequest(wsi)) else { return 0 }
            LwsResponse.write(wsi, raw: refused.rawResponse)
            return 1
        case .filterProtocolConnection:
            // The upgrade was confirmed above; this is a second line in case lws skips the confirmation.
            return upgradeRefusal(LwsRequest(wsi)) == nil ? 0 : 1
        case .established:
            guard !stopping else { return -1 }
            sessions[wsi] = EchoSession(wsi: wsi, maxMessageBytes: options.maxMessageBytes)
            return 0
        case .receive:
            return receive(wsi, input, length)
        case .serverWriteable:
            return writable(wsi)
        case .closed:
            sessions[wsi] = nil
            if stopping && sessions.isEmpty { finished = true }
            return 0
        case .eventWaitCancelled:
            if !stopping, stopRequested.load(ordering: .sequentiallyConsistent) { beginStop() }
            return 0
        default:
            return nil
        }
    }

    /// Every rule an upgrade must pass, in order: Host, Origin, the extension offers lws can answer, and a
    /// subprotocol list lws can read. `nil` when it may go on. Any path, no token.
    func upgradeRefusal(_ request: LwsRequest) -> Refusal? {
        policy.hostRefusal(request) ?? policy.originRefusal(request) ?? ExtensionOffers.refusal(request)
            ?? adoptSubprotocol(request)
    }

    private func beginStop() {
        stopping = true
        for session in sessions.values {
            session.closing = true
            session.wsi.callbackOnWritable()
        }
        if sessions.isEmpty { finished = true }
    }
}

/// The echo on its ``KeyscopeLws/LwsServiceThread``.
extension EchoCore: LwsService {
    func contextCreated(
        _ context: LwsContextHandle, vhost: LwsVhost?, port: Int, protocolName: UnsafeMutablePointer<CChar>
    ) {
        subprotocol = protocolName
        policy = HostPolicy(port: port, extraHosts: [], extraOrigins: [])
        self.context.withLock { $0 = context }
    }

    func serviced() {}

    var isFinished: Bool { finished || forcedFlag.load(ordering: .sequentiallyConsistent) }

    func contextEnding() {
        context.withLock { $0 = nil }
        subprotocol = nil
    }
}
