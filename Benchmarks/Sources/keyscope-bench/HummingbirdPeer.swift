import Foundation
import Hummingbird
import HummingbirdWebSocket
import KeyscopeInspector
import Logging
import ServiceLifecycle
import Synchronization

/// The peer of the push benchmark: a Hummingbird 2 application whose WebSocket route (hummingbird-websocket) feeds
/// one client from an ``InspectorHub`` cursor exactly as Keyscope's server does: the same token check, `hello`, the
/// snapshot's bytes, then, whenever the hub appended, `cursor.next` with the server's frame limits (10,000 entries,
/// 256 KiB) and `HubMessages.changes` as one text frame, until the cursor is dry; then it waits for the next append.
/// The wake-up is the server's too: one per burst, from the hub's `appendSignal`, re-armed before each read.
///
/// ```swift
/// let peer = try HummingbirdPeer.start(hub: hub, token: "t")
/// let client = BenchClient(mode: .parse)
/// client.start(port: peer.port, token: "t")
/// peer.stop()
/// ```
/// Hummingbird runs as it does by default: on NIO's singleton event loop group (one loop per core), the route on
/// Swift's global executor. One client at a time (it installs its hook in the hub's `appendSignal`).
final class HummingbirdPeer: Sendable {
    let port: Int
    let token: String
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// The server's frame limits (`ServerCore.frameEntries`, `.frameBytes`), so that frames batch the same.
    static let frameEntries = 10_000
    static let frameBytes = 256 << 10

    private init(port: Int, token: String, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.token = token
        self.group = group
        self.task = task
    }

    /// Starts the application on `127.0.0.1`, any free port; returns once it listens.
    static func start(hub: InspectorHub, token: String) throws -> HummingbirdPeer {
        var logger = Logger(label: "bench.hummingbird")
        logger.logLevel = .warning
        let listening = DispatchSemaphore(value: 0)
        let boundPort = PortBox()
        let expected = "Bearer " + token
        let app = Application(
            router: Router(),
            server: .http1WebSocketUpgrade { request, _, _ in
                guard request.path == "/ws", request.headerFields[.authorization] == expected else {
                    return .dontUpgrade
                }
                return .upgrade([.secWebSocketProtocol: "keyscope.v1"]) { inbound, outbound, _ in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        // Control frames are handled while the inbound stream is read; it ends on the client's close.
                        group.addTask { for try await _ in inbound {} }
                        group.addTask { try await feed(hub: hub, outbound: outbound) }
                        _ = try await group.next()
                        group.cancelAll()
                    }
                }
            },
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                boundPort.port.store(channel.localAddress?.port ?? 0, ordering: .sequentiallyConsistent)
                listening.signal()
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task { try await group.run() }
        let started = listening.wait(timeout: .now() + 20) == .success
        let port = boundPort.port.load(ordering: .sequentiallyConsistent)
        guard started, port > 0 else {
            task.cancel()
            throw BenchError("the Hummingbird peer did not start listening within 20 s")
        }
        return HummingbirdPeer(port: port, token: token, group: group, task: task)
    }

    /// Shuts the application down gracefully (its client has closed by then) and waits for it, 10 s at most.
    func stop() {
        let done = DispatchSemaphore(value: 0)
        Task {
            await group.triggerGracefulShutdown()
            _ = await task.result
            done.signal()
        }
        if done.wait(timeout: .now() + 10) == .timedOut { task.cancel() }
    }

    /// One client's stream: hello, snapshot, then the log from the cursor, one frame per read.
    private static func feed(hub: InspectorHub, outbound: WebSocketOutboundWriter) async throws {
        let wakeUps = WakeUps()
        hub.appendSignal.install { wakeUps.yield() }
        defer { hub.appendSignal.install(nil) }
        let (snapshot, cursor) = hub.makeCursor()
        try await send(
            Array(#"{"type":"hello","protocol":1,"server":{"name":"hummingbird-peer"},"readOnly":false}"#.utf8),
            outbound)
        try await send(snapshot.messageBytes(), outbound)
        var next = wakeUps.stream.makeAsyncIterator()
        while !Task.isCancelled {
            hub.appendSignal.rearm()
            while let read = cursor.next(maxEntries: frameEntries, maxBytes: frameBytes) {
                switch read {
                case .entries(let entries): try await send(HubMessages.changes(entries), outbound)
                case .gap(let from, let to, let snapshot):
                    try await send(HubMessages.gap(from: from, to: to), outbound)
                    try await send(snapshot.messageBytes(), outbound)
                case .snapshot(let snapshot): try await send(snapshot.messageBytes(), outbound)
                }
            }
            guard await next.next() != nil else { return }
        }
    }

    /// One text frame holding `bytes` (copied once into a `ByteBuffer`; no UTF-8 validation, no String).
    private static func send(_ bytes: [UInt8], _ outbound: WebSocketOutboundWriter) async throws {
        let buffer = ByteBuffer(bytes: bytes)
        try await outbound.withTextMessageWriter { write in try await write(buffer) }
    }
}

/// Where the peer's start-up hands over the port it listens on.
private final class PortBox: Sendable {
    let port = Atomic<Int>(0)
}

/// The peer's hook in the hub's append signal (called once per burst of appends, like the server's): wake-ups
/// delivered to the feeding loop through a one-slot stream.
private final class WakeUps: Sendable {
    let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1)) }

    func yield() { continuation.yield() }

    deinit { continuation.finish() }
}
