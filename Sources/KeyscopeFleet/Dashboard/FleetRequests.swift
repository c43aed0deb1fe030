import Dispatch
import Foundation
public import KeyscopeCore
import KeyscopeRedis
import Logging
import Synchronization

/// What became of a request sent to an instance through the fleet.
public enum FleetAnswer: Sendable {
    /// The instance's `reply` message, as its own inspector would have sent it.
    case reply(StoreValue)
    /// No answer in time (the instance is gone, slow, or Redis is unreachable): why, for the `unavailable` error.
    case unavailable(String)
}

/// Sends requests to instances and matches their answers: requests go out on a queue with a connection of its own
/// (`LPUSH` on the instance's request list), answers come back on a reader thread (`BLPOP` on this dashboard's reply
/// list), and a request without an answer by its deadline is answered ``FleetAnswer/unavailable(_:)``. Whatever the
/// instance does with a request it finds after its deadline, it does not apply it (``FleetEnvelope``).
final class FleetRequests: Sendable {
    let options: FleetView.Options
    let keys: FleetKeys
    let dashboardID: String
    let logger: Logger
    private let sendQueue = DispatchQueue(label: "keyscope.fleet.send")
    private let sender: Mutex<RedisClient?> = Mutex(nil)
    private let pending = Mutex<[String: Pending]>([:])
    private let stopping = Atomic<Bool>(false)

    private struct Pending {
        let deadline: ContinuousClock.Instant
        let completion: @Sendable (FleetAnswer) -> Void
    }

    /// How long one `BLPOP` of the reader waits (also how often deadlines are checked).
    static let blockTime = Duration.milliseconds(100)
    /// The instance's deadline comes this much before the dashboard's, for clocks a little apart and the trip back.
    static let deadlineSlack = Duration.seconds(1)

    init(options: FleetView.Options, keys: FleetKeys, dashboardID: String, logger: Logger) {
        self.options = options
        self.keys = keys
        self.dashboardID = dashboardID
        self.logger = logger
    }

    func start() {
        let reader = Thread { [self] in runReader() }
        reader.name = "keyscope.fleet.replies"
        reader.start()
    }

    func stop() {
        stopping.store(true, ordering: .relaxed)
        let left = pending.withLock { pending in
            defer { pending.removeAll() }
            return Array(pending.values)
        }
        for request in left { request.completion(.unavailable("the fleet dashboard is stopping")) }
    }

    /// Sends `request` (a client's request object) to the instance; `completion` runs once, on one of the view's
    /// threads, with its answer or ``FleetAnswer/unavailable(_:)``.
    func send(_ request: [UInt8], to instance: String, completion: @escaping @Sendable (FleetAnswer) -> Void) {
        let rid = UUID().uuidString.lowercased()
        pending.withLock {
            $0[rid] = Pending(deadline: .now + options.requestTimeout, completion: completion)
        }
        let deadline = Date().addingTimeInterval((options.requestTimeout - Self.deadlineSlack).seconds)
        let envelope = FleetEnvelope.request(
            rid: rid, dashboard: dashboardID, deadlineMillis: Int64(deadline.timeIntervalSince1970 * 1000),
            request: request)
        let key = keys.requests(instance)
        sendQueue.async { [self] in
            do throws(RedisError) {
                try sendClient().call(bytes: [Array("LPUSH".utf8), Array(key.utf8), envelope])
                // A request nobody takes (the instance is gone) does not outlive its deadline.
                try sendClient().call(["PEXPIRE", key, String(options.requestTimeout.milliseconds)])
            } catch {
                finish(rid, .unavailable("the fleet's Redis is unreachable (\(error.code.rawValue))"))
            }
        }
    }

    /// Asks the instance to publish a fresh snapshot (fire and forget).
    func askForSnapshot(of instance: String) {
        send(Array(#"{"id":null,"type":"\#(FleetMember.snapshotRequestType)"}"#.utf8), to: instance) { _ in }
    }

    private func sendClient() -> RedisClient {
        sender.withLock { client in
            if let client { return client }
            let made = RedisClient(
                url: options.redis, connectTimeout: options.connectTimeout, commandTimeout: options.commandTimeout)
            client = made
            return made
        }
    }

    private func finish(_ rid: String, _ answer: FleetAnswer) {
        guard let request = pending.withLock({ $0.removeValue(forKey: rid) }) else { return }
        request.completion(answer)
    }

    // MARK: The reader

    private func runReader() {
        let client = RedisClient(
            url: options.redis, connectTimeout: options.connectTimeout,
            commandTimeout: options.commandTimeout + Self.blockTime)
        let key = keys.replies(dashboard: dashboardID)
        var backoff = RedisBackoff()
        while !stopping.load(ordering: .relaxed) {
            expireLateRequests()
            guard pending.withLock({ !$0.isEmpty }) else {
                Thread.sleep(forTimeInterval: Self.blockTime.seconds)
                continue
            }
            do throws(RedisError) {
                let reply = try client.call(["BLPOP", key, String(format: "%.3f", Self.blockTime.seconds)])
                backoff.reset()
                guard let pair = reply.array, pair.count == 2, case .bulk(let bytes) = pair[1],
                    let answer = FleetEnvelope.readReply(bytes)
                else { continue }
                finish(answer.rid, .reply(answer.reply))
            } catch {
                Thread.sleep(forTimeInterval: backoff.nextDelay().seconds)
            }
        }
        client.disconnect()
    }

    private func expireLateRequests() {
        let now = ContinuousClock.now
        let late = pending.withLock { pending -> [Pending] in
            let ids = pending.filter { $0.value.deadline <= now }.map(\.key)
            return ids.compactMap { pending.removeValue(forKey: $0) }
        }
        for request in late {
            request.completion(.unavailable("the instance did not answer within \(options.requestTimeout)"))
        }
    }
}
