import Foundation
import KeyscopeCore
import KeyscopeFleet
import KeyscopeInspector
import KeyscopeTesting
import Testing

/// One simulated instance: its own registry, a memory store and a secrets store, a hub and its fleet membership.
final class FleetInstanceUnderTest {
    let registry = StoreRegistry()
    let store: KeyValueStore
    let secrets: KeyValueStore
    let hub: InspectorHub
    let member: FleetMember

    init(
        redis: String, fleet: String, id: String, readOnly: Bool = false,
        root: [String: StoreValue] = ["cart": ["total": 90]]
    )
        throws
    {
        store = KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: root)
        secrets = KeyValueStore(
            id: StoreID(scope: .app, storage: .secrets(service: "payments")), root: ["apiKey": "sk-live-123456"])
        try registry.register(store)
        try registry.register(secrets)
        var options = try FleetOptions(
            redis: redis, fleet: fleet, instance: id, name: "test-service", readOnly: readOnly)
        options.heartbeat = .milliseconds(200)
        member = FleetMember(options)
        hub = InspectorHub(registry: registry, features: [member])
        hub.start()
    }

    func stop() {
        member.stop()
        hub.stop()
    }
}

/// A fleet view with short intervals for tests.
func makeView(_ redis: String, fleet: String) throws -> FleetView {
    var options = try FleetView.Options(redis: redis, fleet: fleet)
    options.directoryInterval = .milliseconds(100)
    options.blockTime = .milliseconds(100)
    options.requestTimeout = .seconds(3)
    let view = FleetView(options)
    view.start()
    return view
}

/// Polls `condition` every 20 ms until it holds; records an issue naming `what` after `timeout`.
@discardableResult
func eventually(_ what: String, timeout: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.02)
    }
    Issue.record("timed out waiting for \(what)")
    return false
}

/// Waits for the completion of an asynchronous call and returns what it was given.
func awaitAnswer(timeout: Duration = .seconds(10), _ start: (@escaping @Sendable ([UInt8]) -> Void) -> Void)
    -> StoreValue?
{
    let box = Box()
    start { bytes in box.set(bytes) }
    guard eventually("an answer", timeout: timeout, { box.get() != nil }), let bytes = box.get() else { return nil }
    return try? StoreValue(jsonBytes: bytes)
}

final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var value: [UInt8]?
    func set(_ bytes: [UInt8]) { lock.withLock { value = bytes } }
    func get() -> [UInt8]? { lock.withLock { value } }
}
