import Foundation
import KeyscopeCore
import Synchronization

@testable import keyscope

/// A demo service with a registry and a state directory of its own, and a record of everything that registry heard.
final class DemoHarness: Sendable {
    let registry = StoreRegistry()
    let directory: TemporaryDemoDirectory
    let service: DemoService
    private let log: ActivityLog
    private let token: ObservationToken

    init(rate: Int = DemoConfiguration.defaultRate, seed: UInt64 = 1, catalogKeys: Int = 0) throws {
        let directory = try TemporaryDemoDirectory()
        let log = ActivityLog()
        self.directory = directory
        self.log = log
        self.token = registry.observe { log.append($0) }
        self.service = DemoService(
            configuration: DemoConfiguration(
                rate: rate, seed: seed, stateDirectory: directory.url, catalogKeys: catalogKeys),
            registry: registry)
    }

    /// The settings store's id (its path is this harness's directory).
    var settingsID: StoreID { StoreID(scope: .app, storage: .file(url: service.configuration.stateFile)) }

    /// Every change heard, in order.
    func changes() -> [StoreChange] {
        log.activities.compactMap { activity in
            if case .changed(let change) = activity { change } else { nil }
        }
    }

    /// Every change as `<store> <patches as JSON>`, the settings store's id written `settings` so that harnesses with
    /// different directories compare equal.
    func recorded() -> [String] {
        changes().map { change in
            let store = change.storeID == settingsID ? "settings" : change.storeID.description
            return "\(store) \(change.patches.map(\.description).joined(separator: "; "))"
        }
    }

    /// `registered <id>` and `removed <id>`, in order.
    func events() -> [String] {
        log.activities.compactMap { activity in
            switch activity {
            case .registered(let id, _, _): "registered \(id)"
            case .removed(let id): "removed \(id)"
            default: nil
            }
        }
    }

    /// Every store's state, by id.
    func snapshots() -> [String: StoreValue] {
        Dictionary(uniqueKeysWithValues: registry.stores.map { ($0.id.description, $0.snapshot()) })
    }

    /// Whether every ``DemoLabel`` has a live subscription that heard a change (PromoBanner: its first value).
    func hasAllSubscriptionsDelivered() -> Bool {
        let infos = registry.stores.flatMap(\.subscriptions)
        return DemoLabel.all.allSatisfy { label in
            infos.contains { $0.label == label && $0.deliveries > (label == DemoLabel.promoBanner ? 0 : 1) }
        }
    }

    /// Waits until the service has made `count` changes in all; throws after `timeout` (a guard against hanging).
    func waitForChanges(_ count: Int, timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        while service.changes < count {
            guard ContinuousClock.now < deadline else {
                throw DemoTestError("the service made \(service.changes) changes, not \(count), within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// How many changes the service made while the caller slept for `window` (or longer, on a busy machine), and
    /// the whole seconds the window really lasted, rounded up.
    func changes(during window: Duration) async throws -> (count: Int, seconds: Int) {
        let clock = ContinuousClock()
        let (before, began) = (service.changes, clock.now)
        try await Task.sleep(for: window)
        let (after, elapsed) = (service.changes, clock.now - began)
        return (after - before, Int((elapsed / .seconds(1)).rounded(.up)))
    }

    /// Saves what is pending (so that no background save looks for the directory afterwards), then removes it.
    func remove() {
        for store in service.factory.stores { store.flush() }
        directory.remove()
    }
}

/// What an observer heard, in order.
final class ActivityLog: Sendable {
    private let entries = Mutex<[StoreActivity]>([])

    func append(_ activity: StoreActivity) {
        entries.withLock { $0.append(activity) }
    }

    var activities: [StoreActivity] { entries.withLock { $0 } }
}

/// A fresh directory under the temporary directory, removed by ``remove()``.
struct TemporaryDemoDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("keyscope-demo-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

struct DemoTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
