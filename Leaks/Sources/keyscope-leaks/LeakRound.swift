import KeyscopeCore
import KeyscopeInspector
import KeyscopeServer
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One start and stop of the inspector with clients attached:
/// 1. a new registry with `app/memory` and `scenario:checkout/memory`, and the inspector on port 0;
/// 2. three clients, each reading `hello` and `snapshot`;
/// 3. store writes (sets, a transaction, a store registered, written and removed), which every client reads in
///    `changes`, and a `write` request from one client, answered by a `reply`;
/// 4. one client closes, then the inspector stops with two clients attached, which get close 1001;
/// 5. the hub, the registry and the stores must then be released (waited for up to two seconds).
struct LeakRound {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let round: Int
    let logger: Logger

    /// The round's objects, held weakly: all must be gone once the inspector stopped and the round returned.
    final class Watched {
        weak var hub: InspectorHub?
        weak var registry: StoreRegistry?
        weak var store: KeyValueStore?

        var alive: [String] {
            [hub.map { _ in "the hub" }, registry.map { _ in "the registry" }, store.map { _ in "a store" }]
                .compactMap { $0 }
        }
    }

    /// Runs the round; returns how many messages the clients received.
    func run() throws -> Int {
        let watched = Watched()
        let messages = try session(watched)
        // Released as the last references go, on this thread or the (stopped) service thread: poll briefly.
        for _ in 0..<200 where !watched.alive.isEmpty { usleep(10_000) }
        guard watched.alive.isEmpty else {
            throw Failure(description: "still alive after stop: " + watched.alive.joined(separator: ", "))
        }
        return messages
    }

    private func session(_ watched: Watched) throws -> Int {
        let registry = StoreRegistry()
        let app = KeyValueStore(
            id: StoreID(scope: .app, storage: .memory),
            root: ["cart": ["total": 0, "items": [], "coupon": "SAVE10"], "user": ["name": "Ada"]])
        let checkout = KeyValueStore(
            id: StoreID(scope: .scenario(id: "checkout"), storage: .memory), root: ["step": "address"])
        try registry.register(app)
        try registry.register(checkout)
        var options = ServerOptions()
        options.port = 0
        options.writesServerRecord = false
        guard let handle = try Inspector.start(registry: registry, options: options, force: true, logger: logger),
            let port = handle.port, let token = handle.server.token
        else { throw Failure(description: "the inspector did not start") }
        watched.hub = handle.server.hub
        watched.registry = registry
        watched.store = app

        var received = 0
        let clients = try (0..<3).map { _ in try LeakClient(port: port, token: token) }
        for client in clients { received += try read(client, until: { $0["type"] == "snapshot" }) }

        try write(app, checkout, registry)
        let last = handle.server.hub.lastSeq
        for client in clients { received += try read(client, until: { Self.lastSeq(ofChanges: $0) >= last }) }

        try clients[0].sendText(
            #"{"id":1,"type":"write","store":"app/memory","op":"set","path":"user.name","value":"Grace"}"#)
        received += try read(clients[0], until: { $0["type"] == "reply" && $0["ok"] == true })
        try clients[2].closeAndDrain()

        handle.stop()
        for client in clients.prefix(2) {
            while let message = try client.nextMessage() {
                _ = message
                received += 1
            }
            guard client.closeCode == 1001 else {
                throw Failure(description: "a client was closed with \(client.closeCode.map(String.init) ?? "nothing")")
            }
        }
        return received
    }

    private func write(_ app: KeyValueStore, _ checkout: KeyValueStore, _ registry: StoreRegistry) throws {
        for index in 0..<5 { _ = app.set("cart.total", .integer(Int64(round * 10 + index))) }
        try app.transaction { tx in
            try tx.apply(.insert("cart.items[0]", ["title": "Tea", "qty": .integer(Int64(round))]))
            try tx.remove("cart.coupon")
        }
        _ = checkout.set("step", "payment")
        let temporary = KeyValueStore(id: StoreID(scope: .scenario(id: "leak-\(round)"), storage: .memory), root: [:])
        try registry.register(temporary)
        _ = temporary.set("seen", true)
        registry.unregister(temporary.id)
    }

    /// Reads messages until one satisfies `done`; returns how many were read.
    private func read(_ client: LeakClient, until done: ([String: StoreValue]) -> Bool) throws -> Int {
        var count = 0
        while let bytes = try client.nextMessage() {
            count += 1
            guard case .object(let message) = try StoreValue(jsonBytes: bytes) else {
                throw Failure(description: "a message that is not an object")
            }
            if done(message) { return count }
        }
        throw Failure(description: "the server closed early (\(client.closeCode.map(String.init) ?? "no code"))")
    }

    /// The newest seq of a `changes` message (0 for any other message).
    private static func lastSeq(ofChanges message: [String: StoreValue]) -> Int {
        guard message["type"] == "changes", case .array(let entries)? = message["entries"],
            case .object(let entry)? = entries.last, case .integer(let seq)? = entry["seq"]
        else { return 0 }
        return Int(seq)
    }
}
