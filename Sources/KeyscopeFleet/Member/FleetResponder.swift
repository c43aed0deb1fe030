import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopeRedis
import KeyscopeServer
import Logging
import Synchronization

/// The thread that answers requests that reach an instance through its fleet: it takes them from the instance's
/// request list (`BLPOP`, on a connection of its own) and runs each through the same validated path as a request to
/// the instance's own inspector (``RequestExecutor``), read-only when the instance refuses fleet writes.
final class FleetResponder: Sendable {
    let options: FleetOptions
    let keys: FleetKeys
    let link: HubLink
    let publisher: FleetPublisher
    private let stopping = Atomic<Bool>(false)

    /// How long one `BLPOP` waits before checking whether to stop.
    static let blockTime = Duration.milliseconds(500)
    /// How long a dashboard's reply list lives without being read (a dashboard that went away).
    static let replyRetention = "60"

    init(options: FleetOptions, link: HubLink, publisher: FleetPublisher) {
        self.options = options
        self.keys = FleetKeys(fleet: options.fleet)
        self.link = link
        self.publisher = publisher
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "keyscope.fleet.requests"
        thread.start()
    }

    func stop() { stopping.store(true, ordering: .relaxed) }

    private func run() {
        let client = RedisClient(
            url: options.redis, connectTimeout: options.connectTimeout,
            commandTimeout: options.commandTimeout + Self.blockTime)
        var backoff = RedisBackoff()
        while !stopping.load(ordering: .relaxed), let hub = link.current {
            do throws(RedisError) {
                let reply = try client.call([
                    "BLPOP", keys.requests(options.instance), String(format: "%.3f", Self.blockTime.seconds),
                ])
                backoff.reset()
                guard let pair = reply.array, pair.count == 2, case .bulk(let bytes) = pair[1] else { continue }
                // Taken while leaving: unanswered, the dashboard says `unavailable`, and nothing changes.
                guard !stopping.load(ordering: .relaxed), hub.isRunning else { continue }
                try answer(bytes, hub: hub, client: client)
            } catch {
                Thread.sleep(forTimeInterval: backoff.nextDelay().seconds)
            }
        }
        client.disconnect()
    }

    private func answer(_ bytes: [UInt8], hub: InspectorHub, client: RedisClient) throws(RedisError) {
        guard let envelope = FleetEnvelope.readRequest(bytes) else { return }
        // Past its deadline the dashboard has answered `unavailable`: applying it now would change what it said
        // did not change.
        guard Int64(Date().timeIntervalSince1970 * 1000) <= envelope.deadlineMillis else { return }
        let reply = answer(envelope.request, hub: hub)
        let target = keys.replies(dashboard: envelope.dashboard)
        try client.call(bytes: [
            Array("LPUSH".utf8), Array(target.utf8),
            FleetEnvelope.reply(rid: envelope.rid, instance: options.instance, reply: reply),
        ])
        try client.call(["EXPIRE", target, Self.replyRetention])
    }

    /// The reply to one request: `fleet.snapshot` (a dashboard's mirror lost the thread of the log and asks for a
    /// fresh snapshot), `fleet.route` (a feature route carried to this instance), or a request of PROTOCOL.md run
    /// through the same validated path as one sent to the instance's own inspector.
    private func answer(_ request: [UInt8], hub: InspectorHub) -> [UInt8] {
        let object = FleetMessages.members(request) ?? [:]
        if object["type"] == .string(FleetMember.snapshotRequestType) {
            publisher.wantSnapshot()
            return Array(#"{"ok":true,"result":{},"type":"reply"}"#.utf8)
        }
        if let refusal = FleetSecretGuard.refusal(for: object) {
            return ServerMessages.reply(id: object["id"] ?? .null, error: refusal)
        }
        if let route = FleetRouteRequest.decode(object) {
            return FleetRouteRequest.reply(route.flatMap { $0.call(on: hub, readOnly: options.readOnly) })
        }
        let executor = RequestExecutor(
            hub: hub, readOnly: options.readOnly, maxJSONDepth: FleetMessages.maxRequestDepth)
        return executor.execute(request).reply
    }
}
