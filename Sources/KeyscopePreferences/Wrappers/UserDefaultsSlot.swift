import Foundation
import KeyscopeCore
import Synchronization

/// The shared state behind one ``UserDefaultValue``: reads and writes one key of one suite, and publishes the
/// value whenever it is seen to change.
///
/// `@unchecked Sendable`: `defaults` is a `UserDefaults`, thread-safe on every platform (corelibs marks the
/// conformance unavailable but implements every call over CFPreferences, which locks each domain, and guards its
/// volatile domains with a lock); `subject` is a Combine/OpenCombine subject, which locks itself and is only sent to
/// under `publishing`; `observer` is written in `init` and read in `deinit` only; everything else that changes is in
/// `state`.
final class UserDefaultsSlot<Value: Codable & Sendable>: @unchecked Sendable {
    let key: String
    let defaultValue: Value
    private let defaults: UserDefaults?
    /// The default's JSON text: a value that encodes to it is stored by removing the key.
    private let defaultText: String?
    let reporter: PreferencesReporter
    private let subject: CurrentValueSubject<Value, Never>
    /// Serialises "compare with what subscribers last got, then send" (recursive: a subscriber may read the value).
    private let publishing = NSRecursiveLock()
    private var observer: (any NSObjectProtocol)?

    private struct State {
        /// The JSON text of the value subscribers last received.
        var publishedText: String?
        /// The description of the last stored value that failed to decode, so that each bad value is reported once.
        var reportedFailure: String?
        /// The description of the last stored value reported as read through the plain-value fallback.
        var reportedPlain: String?
        /// The JSON text this slot last wrote: seeing it again is not a change made elsewhere.
        var writtenText: String?
    }

    private let state = Mutex(State())

    init(
        key: String, defaultValue: Value, defaults: UserDefaults?, container: String,
        monitors: [any PreferencesMonitor]?
    ) {
        self.key = key
        self.defaultValue = defaultValue
        self.defaults = defaults
        let reporter = PreferencesReporter(monitors: monitors, source: .userDefaults, container: container, key: key)
        self.reporter = reporter
        self.defaultText = try? PreferenceCoding.text(defaultValue)
        let initial = Self.decode(defaults?.object(forKey: key), defaultValue: defaultValue).value
        self.subject = CurrentValueSubject(initial)
        state.withLock { $0.publishedText = try? PreferenceCoding.text(initial) }
        if defaults == nil {
            reporter.error(.unavailable, "UserDefaults refused the suite \"\(container)\"; the default is used")
        }
        // Changes by other instances in this process: Apple posts this for every write; corelibs only for
        // setPersistentDomain and removePersistentDomain (see UserDefaultValue's documentation).
        observer = NotificationCenter.default.addObserver(
            forName: UserDefaults.didChangeNotification, object: nil, queue: nil
        ) { [weak self] _ in
            self?.reload(synchronizing: false)
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    // MARK: Reading

    /// The value now: the stored one decoded, or the default when there is none or it does not decode.
    func read() -> Value {
        guard let defaults else { return defaultValue }
        return resolve(defaults.object(forKey: key))
    }

    /// Re-reads the stored value (first taking in what other processes saved, when `synchronizing`) and sends it to
    /// subscribers when it changed.
    func reload(synchronizing: Bool) {
        guard let defaults else { return }
        if synchronizing { defaults.synchronize() }
        let value = resolve(defaults.object(forKey: key))
        publish(value, changedElsewhere: true)
    }

    /// The publisher: the value as it is now (re-read first), then every change.
    func publisher() -> AnyPublisher<Value, Never> {
        reload(synchronizing: false)
        return subject.eraseToAnyPublisher()
    }

    private func resolve(_ object: Any?) -> Value {
        let decoded = Self.decode(object, defaultValue: defaultValue)
        guard let report = decoded.report else { return decoded.value }
        let fingerprint = "\(object ?? "nil")"
        let isNew = state.withLock { state -> Bool in
            if report.isError {
                defer { state.reportedFailure = fingerprint }
                return state.reportedFailure != fingerprint
            }
            defer { state.reportedPlain = fingerprint }
            return state.reportedPlain != fingerprint
        }
        if isNew {
            if report.isError {
                reporter.error(.readFailed, report.detail)
            } else {
                reporter.message(.readPlainValue, report.detail)
            }
        }
        return decoded.value
    }

    private struct Decoded {
        var value: Value
        var report: (isError: Bool, detail: String)?
    }

    private static func decode(_ object: Any?, defaultValue: Value) -> Decoded {
        guard let object else { return Decoded(value: defaultValue) }
        switch PreferenceCoding.decode(Value.self, stored: object) {
        case .json(let value):
            return Decoded(value: value)
        case .plain(let value):
            return Decoded(
                value: value,
                report: (
                    false,
                    "read a plain \(PreferenceCoding.plistTypeName(object))"
                        + " written without JSON encoding; the next write stores JSON"
                ))
        case .failed(let detail):
            return Decoded(value: defaultValue, report: (true, detail + "; the default is used"))
        }
    }

    // MARK: Writing

    /// Stores `value` as JSON text, or removes the key when `value` encodes like the default; saves the suite
    /// (corelibs writes nothing to disk otherwise) and tells subscribers.
    func write(_ value: Value) {
        guard let defaults else {
            reporter.error(.unavailable, "no UserDefaults suite to write to; the value was not stored")
            return
        }
        let text: String
        do {
            text = try PreferenceCoding.text(value)
        } catch {
            let reason = PreferenceCoding.describe(error, of: Value.self, secret: false)
            reporter.error(.writeFailed, "\(reason); the stored value is unchanged")
            return
        }
        // Before writing: Apple posts didChangeNotification from inside set(_:forKey:), and the reload it causes
        // must not take this write for someone else's.
        state.withLock { $0.writtenText = text }
        let stored = defaults.object(forKey: key)
        if text == defaultText {
            if stored != nil {
                defaults.removeObject(forKey: key)
                if save(defaults) { reporter.message(.removed, "set to its default: the key was removed") }
            }
        } else if (stored as? String) != text {
            defaults.set(text, forKey: key)
            if save(defaults) { reporter.message(.written, "stored \(text.utf8.count) bytes of JSON") }
        }
        publish(value, text: text, changedElsewhere: false)
    }

    private func save(_ defaults: UserDefaults) -> Bool {
        #if canImport(Darwin)
        return true  // Apple's defaults daemon saves on its own; synchronize() is a deprecated no-op there.
        #else
        guard defaults.synchronize() else {
            reporter.error(.writeFailed, "UserDefaults could not save the suite to disk; the value is only in memory")
            return false
        }
        return true
        #endif
    }

    // MARK: Publishing

    private func publish(_ value: Value, text: String? = nil, changedElsewhere: Bool) {
        guard let text = text ?? (try? PreferenceCoding.text(value)) else { return }
        publishing.lock()
        defer { publishing.unlock() }
        let (changed, ownWrite) = state.withLock { state -> (Bool, Bool) in
            guard state.publishedText != text else { return (false, false) }
            state.publishedText = text
            return (true, state.writtenText == text)
        }
        guard changed else { return }
        if changedElsewhere, !ownWrite {
            reporter.message(.changedElsewhere, "the stored value changed; subscribers were told")
        }
        subject.send(value)
    }
}
