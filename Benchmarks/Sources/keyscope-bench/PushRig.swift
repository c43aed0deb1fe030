import KeyscopeCore
import KeyscopeInspector
import KeyscopeServer
import Synchronization

/// Which server feeds the clients.
enum PushServerKind: String {
    case keyscope = "Keyscope (libwebsockets)"
    case hummingbird = "Hummingbird 2.28.1 + hummingbird-websocket 2.8.1 (peer)"
}

/// One fresh set-up for a push measurement: a registry with the workload's store, a hub on it, and a server on
/// loopback (port 0) feeding clients from that hub.
///
/// ```swift
/// let rig = try PushRig(.keyscope, workload: workload)
/// defer { rig.stop() }
/// client.start(port: rig.port, token: rig.token)
/// ```
final class PushRig {
    let registry = StoreRegistry()
    let store: KeyValueStore
    let hub: InspectorHub
    let port: Int
    let token: String
    let kind: PushServerKind
    private let inspector: InspectorServer?
    private let peer: HummingbirdPeer?

    /// A hub whose log holds a whole run (no client may fall off its tail and get a `gap`): the figures are about
    /// delivery, not about the log's bound (whose defaults are 100,000 entries and 64 MiB).
    static let roomyLog = HubOptions(maxEntries: 4_000_000, maxBytes: 4 << 30)

    init(_ kind: PushServerKind, workload: PushWorkload, hubOptions: HubOptions = PushRig.roomyLog) throws {
        self.kind = kind
        store = workload.makeStore()
        try registry.register(store)
        hub = InspectorHub(registry: registry, options: hubOptions)
        switch kind {
        case .keyscope:
            var options = ServerOptions()
            options.host = "127.0.0.1"
            options.port = 0
            options.writesServerRecord = false
            let server = InspectorServer(hub: hub, options: options)
            try server.start()  // starts the hub too
            guard let port = server.port, let token = server.token else {
                throw BenchError("the inspector server started without a port or a token")
            }
            inspector = server
            peer = nil
            self.port = port
            self.token = token
        case .hummingbird:
            hub.start()
            let token = "bench-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
            let server = try HummingbirdPeer.start(hub: hub, token: token)
            inspector = nil
            peer = server
            self.port = server.port
            self.token = token
        }
    }

    /// Stops the server (closing its clients) and the hub, and takes the store out of the registry.
    func stop() {
        inspector?.stop()
        peer?.stop()
        hub.stop()
        registry.unregister(store.id)
    }

    /// Connects `count` clients and waits until each has its snapshot.
    /// With `resumingAfter`, each client asks for the log after that seq and is done at `target`.
    func connect(_ count: Int, mode: BenchClient.Mode, resumingAfter: Int? = nil, target: Int = .max) throws
        -> [BenchClient]
    {
        let clients = (0..<count).map { _ in BenchClient(mode: mode) }
        let label = kind == .keyscope ? "cli-keyscope" : "cli-hummingbird"
        for client in clients {
            client.target.store(target, ordering: .sequentiallyConsistent)
            client.start(port: port, token: token, label: label, resumingAfter: resumingAfter)
        }
        for client in clients { try client.waitUntilReady() }
        return clients
    }

    /// The size of a log line of the workload (the first entry after `seq`) and of its one patch, in bytes.
    func lineAndPatchBytes(after seq: Int) -> (line: Int, patch: Int) {
        guard let entry = hub.entry(seq: seq + 1), let patch = entry.change?.patches.first else { return (0, 0) }
        return (entry.lineBytes.count, patch.jsonObject.jsonBytes(sortedKeys: true).count)
    }
}
