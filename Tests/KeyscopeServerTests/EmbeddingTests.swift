import Foundation
import InMemoryLogging
import KeyscopeCore
import KeyscopeInspector
import KeyscopeServiceLifecycle
import Logging
import ServiceLifecycle
import Synchronization
import Testing

@testable import KeyscopeServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The embedding API: one call in a debug build, a handle that stops it, and the service-lifecycle Service.
@Suite(.serialized) struct EmbeddingTests {
    func options() -> ServerOptions {
        var options = ServerOptions()
        options.port = 0
        options.writesServerRecord = false
        return options
    }

    func health(port: Int, token: String) async throws -> Int {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/api/health")))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        return try #require(response as? HTTPURLResponse).statusCode
    }

    @Test func oneCallStartsAnInspectorThatSeesTheRegistryAndItsHandleStopsIt() async throws {
        #expect(Inspector.isEnabledByDefault, "tests are debug builds")
        let registry = StoreRegistry()
        try registry.register(KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: ["a": 1]))
        let handle = try #require(try Inspector.start(registry: registry, options: options()))
        let port = try #require(handle.port)
        let token = try #require(handle.server.token)
        #expect(handle.dashboardURL == "http://127.0.0.1:\(port)/?token=\(token)")
        #expect(try await health(port: port, token: token) == 200)
        #expect(handle.server.hub.snapshot().stores.map(\.id.description) == ["app/memory"])
        handle.stop()
        #expect(handle.port == nil)
        #expect(Inspector.running.withLock { $0.isEmpty })
        await #expect(throws: (any Error).self) { _ = try await health(port: port, token: token) }
    }

    @Test func anEmbeddedInspectorServesTheBuiltInDashboard() async throws {
        let dashboard = try #require(ServerOptions.builtInDashboard, "the package's Public/ is beside its sources")
        #expect(FileManager.default.fileExists(atPath: dashboard.appendingPathComponent("app/main.mjs").path))
        let handle = try #require(try Inspector.start(registry: StoreRegistry(), options: options()))
        defer { handle.stop() }
        let port = try #require(handle.port)
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/"))
        let (body, response) = try await URLSession.shared.data(from: url)
        #expect(try #require(response as? HTTPURLResponse).statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("<script type=\"module\""))
        var custom = options()
        custom.publicDirectory = URL(fileURLWithPath: "/nonexistent-dashboard")
        #expect(custom.servingBuiltInDashboard().publicDirectory == custom.publicDirectory, "an explicit one stays")
    }

    @Test func theServiceServesUntilGracefulShutdownThenFreesItsPort() async throws {
        let service = try #require(InspectorService(registry: StoreRegistry(), options: options()))
        let group = ServiceGroup(configuration: .init(services: [service], logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var port: Int?
            for _ in 0..<500 where port == nil {
                port = service.server.port
                if port == nil { try await Task.sleep(for: .milliseconds(10)) }
            }
            let listening = try #require(port, "the service did not start its server")
            let token = try #require(service.server.token)
            #expect(try await health(port: listening, token: token) == 200)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            #expect(service.server.port == nil)
            await #expect(throws: (any Error).self) { _ = try await health(port: listening, token: token) }
        }
    }

    @Test func aTakenPortIsLoggedAndTheOtherServicesGoOn() async throws {
        let first = InspectorServer(hub: InspectorHub(registry: StoreRegistry()), options: options())
        try first.start()
        defer { first.stop() }
        var taken = options()
        taken.port = try #require(first.port)
        let logs = InMemoryLogHandler()
        let service = try #require(
            InspectorService(registry: StoreRegistry(), options: taken, logger: Logger(label: "test") { _ in logs }))
        let group = ServiceGroup(
            configuration: .init(services: [service, AppStandIn()], logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var logged: [InMemoryLogHandler.Entry] = []
            for _ in 0..<500 where logged.isEmpty {
                logged = logs.entries.filter { $0.level == .error }
                if logged.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            }
            let line = try #require(logged.first, "no error was logged for the taken port").message.description
            #expect(line.contains("127.0.0.1:\(taken.port)"), "\(line)")
            #expect(service.server.port == nil)
            // Before the fix the inspector's error ended the whole group: run() threw it and the app stopped.
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}

/// The app's own service beside the inspector: runs until the group's graceful shutdown.
private struct AppStandIn: Service {
    func run() async throws { try? await gracefulShutdown() }
}
