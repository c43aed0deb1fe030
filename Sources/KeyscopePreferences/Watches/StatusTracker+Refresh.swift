import Dispatch
import Foundation
import Logging
import Synchronization

extension StatusTracker {
    /// Asks every provider now and writes the keys whose stored value differs from what it said; see the type's
    /// documentation. Returns when done (a refresh already running finishes first).
    public func refresh() {
        refreshing.withLock { _ in refreshHoldingLock() }
    }

    /// The refresh itself; the caller holds `refreshing`.
    func refreshHoldingLock() {
        guard let defaults = UserDefaults(suiteName: suiteName) else {
            logger.error("UserDefaults refused the suite \"\(suiteName)\"; statuses are not mirrored")
            return
        }
        #if !canImport(Darwin)
        defaults.synchronize()  // takes in what other processes saved
        #endif
        let statuses = state.withLock { $0.tracked.map(\.status) }
        var checks: [(name: String, value: String, time: Date, change: StatusChange?)] = []
        for status in statuses {
            let value = status.provider()
            let time = Date()
            let stored = Self.text(of: defaults.object(forKey: status.key))
            var change: StatusChange?
            if stored != value {
                defaults.set(value, forKey: status.key)
                change = StatusChange(time: time, before: stored, after: value)
            }
            checks.append((status.name, value, time, change))
        }
        if checks.contains(where: { $0.change != nil }) { save(defaults) }
        state.withLock { state in
            for check in checks {
                guard let index = state.tracked.firstIndex(where: { $0.status.name == check.name }) else {
                    continue
                }
                state.tracked[index].value = check.value
                state.tracked[index].checked = check.time
                if let change = check.change {
                    state.tracked[index].history.append(change)
                    state.tracked[index].history.removeFirst(
                        max(0, state.tracked[index].history.count - historyLimit))
                    state.writes += 1
                }
            }
        }
        for check in checks {
            guard let change = check.change else { continue }
            let key = Self.keyPrefix + check.name
            logger.info(
                "\(key): \(change.before ?? "(none)") → \(change.after)",
                metadata: [
                    "suite": "\(suiteName)", "status": "\(check.name)", "before": "\(change.before ?? "(none)")",
                    "after": "\(change.after)",
                ])
        }
    }

    /// Every status: the provider's value at the last check, the key's value now, whether they agree, and the
    /// latest changes. Reads the suite; asks no provider.
    public func summary() -> [StatusSummary] {
        let tracked = state.withLock { $0.tracked }
        let defaults = UserDefaults(suiteName: suiteName)
        return tracked.map { item in
            StatusSummary(
                name: item.status.name, key: item.status.key, value: item.value,
                stored: Self.text(of: defaults?.object(forKey: item.status.key)), checked: item.checked,
                history: item.history)
        }
    }

    /// The latest changes of the status `name`, oldest first (empty for an unknown name).
    public func history(of name: String) -> [StatusChange] {
        state.withLock { $0.tracked.first { $0.status.name == name }?.history ?? [] }
    }

    private func save(_ defaults: UserDefaults) {
        #if !canImport(Darwin)
        if !defaults.synchronize() {
            logger.error("UserDefaults could not save the suite \"\(suiteName)\"; the statuses are only in memory")
        }
        #endif
    }

    /// A stored value as status text: strings as they are, anything else (someone wrote a number) described.
    static func text(of object: Any?) -> String? {
        guard let object else { return nil }
        return object as? String ?? "\(object)"
    }
}

/// Refreshes when the app becomes active, where the platform says so (UIKit, AppKit); on Linux it observes
/// nothing. The notifications are named by their raw names so that no UI framework is imported.
///
/// `@unchecked Sendable`: `tokens` is written in `init` and read in `deinit` only.
final class LifecycleObservation: @unchecked Sendable {
    private var tokens: [any NSObjectProtocol] = []

    init(_ action: @escaping @Sendable () -> Void) {
        for name in Self.names {
            tokens.append(
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { _ in
                    // Posted on the main thread: the providers run elsewhere.
                    DispatchQueue.global(qos: .utility).async(execute: action)
                })
        }
    }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }

    static var names: [Notification.Name] {
        #if canImport(UIKit)
        [Notification.Name("UIApplicationDidBecomeActiveNotification")]
        #elseif canImport(AppKit)
        [Notification.Name("NSApplicationDidBecomeActiveNotification")]
        #else
        []
        #endif
    }
}
