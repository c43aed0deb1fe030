import Foundation
import KeyscopeCore
import KeyscopeRedis
import KeyscopeTesting
import Synchronization
import Testing

/// One simulated instance of a service: its own registry, factory and RedisBackend, like a process of its own.
struct Instance {
    let backend: RedisBackend
    let factory: DefaultStoreFactory
    let registry: StoreRegistry
    let store: KeyValueStore
    let changes: ChangeLog

    init(
        _ url: String, fleet: String, id: String, namespace: String = "settings",
        options: RedisBackend.Options = Self.fastOptions
    ) throws {
        backend = try RedisBackend(url: url, fleet: fleet, instance: id, options: options)
        registry = StoreRegistry()
        factory = DefaultStoreFactory(registry: registry, backend: backend)
        let changes = ChangeLog()
        self.changes = changes
        changes.token = registry.observe { activity in
            if case .changed(let change) = activity { changes.append(change) }
        }
        store = factory.store(storage: .backend(namespace: namespace))
    }

    /// Short timeouts, so tests that stop Redis do not wait long for a connection to fail.
    static var fastOptions: RedisBackend.Options {
        var options = RedisBackend.Options()
        options.connectTimeout = .milliseconds(300)
        options.initialLoadTimeout = .seconds(2)
        return options
    }
}

/// The changes an instance's registry heard, in order.
final class ChangeLog: @unchecked Sendable {
    private let changes = Mutex<[StoreChange]>([])
    var token: ObservationToken?

    func append(_ change: StoreChange) { changes.withLock { $0.append(change) } }
    var all: [StoreChange] { changes.withLock { $0 } }
}

/// Waits until `condition` holds; the timeout is a guard against hanging, never a measure.
func eventually(
    _ what: String, timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return }
        Thread.sleep(forTimeInterval: 0.01)
    }
    Issue.record("still not true after \(timeout): \(what)", sourceLocation: sourceLocation)
}

/// A direct connection for looking into Redis from a test.
func inspect(_ server: RedisTestServer) throws -> RedisConnection {
    try RedisConnection(url: RedisURL(parsing: server.url))
}
