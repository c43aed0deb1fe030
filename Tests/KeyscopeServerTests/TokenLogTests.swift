import Foundation
import InMemoryLogging
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import KeyscopeServiceLifecycle
import Logging
import ServiceLifecycle
import Testing

@testable import KeyscopeServer

/// The token stays out of an embedding service's log: `Inspector.start` and `InspectorService` log the dashboard's
/// address without it, and say where it is (the server record file).
@Suite(.serialized) struct TokenLogTests {
    func options(token: String) -> ServerOptions {
        var options = ServerOptions()
        options.port = 0
        options.token = token
        return options
    }

    @Test func inspectorStartLogsTheAddressWithoutTheTokenAndWhereTheTokenIs() async throws {
        do {
            let token = "secret-\(UUID().uuidString)"
            let logs = InMemoryLogHandler()
            let handle = try #require(
                try Inspector.start(
                    registry: StoreRegistry(), options: options(token: token),
                    logger: Logger(label: "test") { _ in logs }))
            defer { handle.stop() }
            let port = try #require(handle.port)
            let lines = logs.entries.map(\.message.description)
            #expect(lines.allSatisfy { !$0.contains(token) }, "\(lines)")
            let line = try #require(lines.first { $0.hasPrefix("Keyscope dashboard: ") })
            let record = ServerRecord.file(port: port).path
            #expect(line.hasPrefix("Keyscope dashboard: http://127.0.0.1:\(port)/ "), "\(line)")
            #expect(line.contains("the token is in \(record)"), "\(line)")
            // The record named holds the token (the handle still gives the full URL to the host's own code).
            #expect(try String(contentsOfFile: record, encoding: .utf8).contains(token))
            #expect(handle.dashboardURL == "http://127.0.0.1:\(port)/?token=\(token)")
        }
    }

    @Test func theServiceLogsTheAddressWithoutTheToken() async throws {
        do {
            let token = "secret-\(UUID().uuidString)"
            let logs = InMemoryLogHandler()
            let service = try #require(
                InspectorService(
                    registry: StoreRegistry(), options: options(token: token),
                    logger: Logger(label: "test") { _ in logs }))
            let group = ServiceGroup(configuration: .init(services: [service], logger: Logger(label: "test")))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var line: String?
                for _ in 0..<500 where line == nil {
                    line = logs.entries.map(\.message.description).first { $0.hasPrefix("Keyscope dashboard: ") }
                    if line == nil { try await Task.sleep(for: .milliseconds(10)) }
                }
                let logged = try #require(line, "the service logged no dashboard line")
                let port = try #require(service.server.port)
                #expect(logged.hasPrefix("Keyscope dashboard: http://127.0.0.1:\(port)/ "), "\(logged)")
                #expect(!logged.contains(token))
                #expect(logged.contains("\(port).json"))
                #expect(logs.entries.allSatisfy { !$0.message.description.contains(token) })
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
    }
}
