import KeyscopeClient
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import Testing

@testable import KeyscopeServer

/// One hub served by one server after another: each start installs the server's hook in the hub's append signal
/// (releasing whatever was there), each stop removes it, and the server started last still streams every change.
@Suite(.serialized) struct ServerRestartTests {
    /// What a hook captures, to see when the hub lets go of it.
    final class Capture: Sendable {}

    @Test func startingAndStoppingServersLeavesNoHookAndTheLastServerStillStreams() async throws {
        let hub = InspectorHub(registry: StoreRegistry())
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: ["n": 0])
        try hub.registry.register(store)
        // The application's own hub: servers do not start or stop it.
        hub.start()
        defer { hub.stop() }
        var options = ServerOptions()
        options.port = 0
        options.writesServerRecord = false

        weak var released: Capture?
        do {
            let capture = Capture()
            released = capture
            hub.appendSignal.install { _ = capture }
        }
        for round in 1...25 {
            let server = InspectorServer(hub: hub, options: options)
            try server.start()
            #expect(hub.appendSignal.isInstalled)
            #expect(released == nil, "the server's hook replaced (and released) the one before")
            // Raises the signal; no client reads it, so nobody re-arms it before the stop.
            store.set("n", .integer(Int64(round)))
            server.stop()
            #expect(!hub.appendSignal.isInstalled, "round \(round)")
        }

        let server = InspectorServer(hub: hub, options: options)
        try server.start()
        defer { server.stop() }
        let endpoint = InspectorEndpoint(host: "127.0.0.1", port: server.port ?? 0, token: server.token ?? "")
        let client = try await InspectorClient.connect(to: endpoint)
        // A round trip first: the client has its snapshot, and the stream is idle.
        _ = try await client.send(request: ["type": "resync"])
        store.set("n", 100)
        var heard = false
        for try await message in client.messages {
            guard case .changes(let entries) = InspectorMessage(message) else { continue }
            if entries.contains(where: { $0["patches"]?[0]?["new"] == 100 }) {
                heard = true
                break
            }
        }
        #expect(heard)
        await client.close()
    }
}
