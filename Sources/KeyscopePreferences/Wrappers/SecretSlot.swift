import Foundation
import KeyscopeCore
import KeyscopeSecrets
import Synchronization

/// The shared state behind one ``KeychainValue``: the item's decoded value (read once, then cached until a refresh
/// or a change notification), writes to the secret store, and the publisher.
///
/// `@unchecked Sendable`: `subject` is a Combine/OpenCombine subject, which locks itself and is only sent to under
/// `publishing`; `observer` is written in `init` and read in `deinit` only; everything else that changes is in
/// `state`, and the stores are `Sendable`.
final class SecretSlot<Value: Codable & Equatable & Sendable>: @unchecked Sendable {
    let account: String
    let defaultValue: Value
    let accessibility: KeychainAccessibility
    private let service: String?
    private let store: (any SecretStore)?
    private let monitors: [any PreferencesMonitor]?
    private let subject: CurrentValueSubject<Value, Never>
    private let publishing = NSRecursiveLock()
    private var observer: (any NSObjectProtocol)?

    private struct Loaded {
        var value: Value
        /// Whether the store holds an item (possibly one that did not decode).
        var stored: Bool
        /// Whether the item could not be read or decoded (`value` is then the default).
        var failed: Bool
    }

    private struct State {
        var loaded: Loaded?
        var published: Value
        /// The last failure reported, so that a failure that repeats is reported once.
        var reported: String?
    }

    private let state: Mutex<State>

    init(
        account: String, defaultValue: Value, accessibility: KeychainAccessibility, service: String?,
        store: (any SecretStore)?, monitors: [any PreferencesMonitor]?
    ) {
        self.account = account
        self.defaultValue = defaultValue
        self.accessibility = accessibility
        self.service = service
        self.store = store
        self.monitors = monitors
        self.subject = CurrentValueSubject(defaultValue)
        self.state = Mutex(State(published: defaultValue))
        observer = NotificationCenter.default.addObserver(
            forName: KeychainValueDefaults.didChangeNotification, object: nil, queue: nil
        ) { [weak self] notification in
            guard let self, let info = notification.userInfo, info["account"] as? String == self.account,
                info["origin"] as? Int != ObjectIdentifier(self).hashValue
            else { return }
            if let target = self.target(), info["service"] as? String == target.service { self.reload() }
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    /// The store and service in force: this wrapper's, else ``KeychainValueDefaults``'.
    private func target() -> (store: any SecretStore, service: String)? {
        guard let store = store ?? KeychainValueDefaults.store else { return nil }
        return (store, service ?? (self.store == nil ? KeychainValueDefaults.service : nil) ?? store.appID)
    }

    private func reporter(_ service: String?) -> PreferencesReporter {
        PreferencesReporter(monitors: monitors, source: .secrets, container: service ?? "(none)", key: account)
    }

    // MARK: Reading

    func read() -> Value {
        if let loaded = state.withLock({ $0.loaded }) { return loaded.value }
        return load()
    }

    /// Reads the item from the store again (a change made elsewhere) and tells subscribers when it changed.
    func reload() {
        state.withLock { $0.loaded = nil }
        _ = load()
    }

    func publisher() -> AnyPublisher<Value, Never> {
        _ = read()
        return subject.eraseToAnyPublisher()
    }

    private func load() -> Value {
        guard let target = target() else {
            report(
                "no secret store: call KeychainValueDefaults.configure(store:) at startup or pass store:; the "
                    + "default is used", kind: .unavailable, service: nil)
            return defaultValue
        }
        let loaded: Loaded
        do throws(SecretStoreError) {
            if let data = try target.store.read(service: target.service, account: account) {
                switch PreferenceCoding.decodeSecret(Value.self, data: data) {
                case .json(let value):
                    loaded = Loaded(value: value, stored: true, failed: false)
                case .plain(let value):
                    loaded = Loaded(value: value, stored: true, failed: false)
                    reporter(target.service).message(.readPlainValue, "read raw text written without JSON encoding")
                case .failed(let detail):
                    loaded = Loaded(value: defaultValue, stored: true, failed: true)
                    report(detail + "; the default is used", kind: .readFailed, service: target.service)
                }
            } else {
                loaded = Loaded(value: defaultValue, stored: false, failed: false)
            }
        } catch {
            loaded = Loaded(value: defaultValue, stored: true, failed: true)
            report(
                "the \(target.store.backendName) store failed to read (\(error)); the default is used until a "
                    + "refresh or a write", kind: .readFailed, service: target.service)
        }
        state.withLock { $0.loaded = loaded }
        publish(loaded.value)
        return loaded.value
    }

    private func report(_ detail: String, kind: PreferenceEvent.Kind, service: String?) {
        let isNew = state.withLock { state -> Bool in
            defer { state.reported = detail }
            return state.reported != detail
        }
        if isNew { reporter(service).error(kind, detail) }
    }

    // MARK: Writing

    /// Stores `value` as JSON bytes, or deletes the item for the default; does nothing when the store already
    /// holds `value` (Equatable), so repeated writes of one value cost no store round trip.
    func write(_ value: Value) {
        let current = read()
        guard let target = target() else {
            reporter(nil).error(.unavailable, "no secret store to write to; the value was not stored")
            return
        }
        let loaded = state.withLock { $0.loaded }
        let known = loaded.map { !$0.failed } ?? false
        let reporter = reporter(target.service)
        do throws(SecretStoreError) {
            if value == defaultValue {
                guard !known || loaded?.stored == true else { return }
                try target.store.delete(service: target.service, account: account)
                reporter.message(.removed, "set to its default: the item was deleted")
            } else {
                guard !known || !(loaded?.stored == true && current == value) else { return }
                let data: Data
                do {
                    data = try PreferenceCoding.encode(value)
                } catch {
                    let reason = PreferenceCoding.describe(error, of: Value.self, secret: true)
                    reporter.error(.writeFailed, "\(reason); the stored item is unchanged")
                    return
                }
                try target.store.write(data, service: target.service, account: account)
                reporter.message(.written, "stored \(data.count) bytes of JSON")
            }
        } catch {
            reporter.error(
                .writeFailed, "the \(target.store.backendName) store failed to write (\(error)); the item is unchanged")
            return
        }
        state.withLock {
            $0.loaded = Loaded(value: value, stored: value != defaultValue, failed: false)
            $0.reported = nil
        }
        publish(value)
        NotificationCenter.default.post(
            name: KeychainValueDefaults.didChangeNotification, object: nil,
            userInfo: ["service": target.service, "account": account, "origin": ObjectIdentifier(self).hashValue])
    }

    private func publish(_ value: Value) {
        publishing.lock()
        defer { publishing.unlock() }
        let changed = state.withLock { state -> Bool in
            guard state.published != value else { return false }
            state.published = value
            return true
        }
        if changed { subject.send(value) }
    }
}
