import Foundation
import KeyscopeCore
import KeyscopeInspector
import Testing

@testable import KeyscopeServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The service thread's nice value, read back from /proc: the inspector yields to the service's threads.
@Suite(.serialized) struct ServiceThreadPriorityTests {
    /// The nice value of every thread of this process named like the service thread (or `name`), by thread id.
    static func serviceThreads(named threadName: String = "keyscope-lws") throws -> [Int: Int] {
        var found: [Int: Int] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") {
            guard let tid = Int(name),
                let comm = try? String(contentsOfFile: "/proc/self/task/\(name)/comm", encoding: .utf8),
                comm.trimmingCharacters(in: .whitespacesAndNewlines) == threadName,
                let stat = try? String(contentsOfFile: "/proc/self/task/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // After "pid (comm) ": state is field 3, nice is field 19.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 16, let nice = Int(fields[16]) else { continue }
            found[tid] = nice
        }
        return found
    }

    /// The nice values of the service threads that appeared while `body` ran its server.
    func niceOfNewServiceThreads(_ configure: (inout ServerOptions) -> Void) throws -> [Int] {
        let before = try Self.serviceThreads()
        let hub = InspectorHub(registry: StoreRegistry())
        var options = ServerOptions()
        options.port = 0
        options.writesServerRecord = false
        configure(&options)
        let server = InspectorServer(hub: hub, options: options)
        try server.start()
        defer { server.stop() }
        return try Self.serviceThreads().filter { before[$0.key] == nil }.map(\.value)
    }

    @Test func theServiceThreadRunsAtNiceTenByDefault() throws {
        let nice = try niceOfNewServiceThreads { _ in }
        #expect(!nice.isEmpty, "no service thread found in /proc/self/task")
        #expect(nice.allSatisfy { $0 == 10 }, "\(nice)")
    }

    @Test func theRequestWorkersThreadsRunAtTheServiceThreadsNice() async throws {
        let before = try Self.serviceThreads(named: "keyscope-work")
        let hub = InspectorHub(registry: StoreRegistry())
        var options = ServerOptions()
        options.port = 0
        options.writesServerRecord = false
        let server = InspectorServer(hub: hub, options: options)
        try server.start()
        defer { server.stop() }
        // The worker's threads start with its first job: a snapshot.
        let port = try #require(server.port)
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/api/snapshot")))
        request.setValue("Bearer \(try #require(server.token))", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let nice = try Self.serviceThreads(named: "keyscope-work").filter { before[$0.key] == nil }.map(\.value)
        #expect(nice.count >= ServerCore.workerThreads, "\(nice)")
        #expect(nice.allSatisfy { $0 == 10 }, "\(nice)")
    }

    @Test func niceZeroKeepsTheStartingThreadsPriority() throws {
        // A new thread starts at its creator's nice value (this test's thread: dispatch gives its threads their own).
        let own = Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        try #require(own != 10, "the test's thread already runs at nice 10: nothing to tell apart")
        let nice = try niceOfNewServiceThreads { $0.serviceThreadNice = 0 }
        // Servers of suites running alongside use the default (10); this one must be among the new threads.
        #expect(nice.contains(own), "\(nice), the starting thread at \(own)")
    }
}
