import Synchronization

/// The process-wide ``PreferencesMonitor``s: the ones every wrapper made without its own `monitors` reports to.
///
/// ```swift
/// // once, at startup (before or after the wrappers are made: they look the monitors up on each report)
/// PreferencesMonitoring.configure([LoggingPreferencesMonitor(), CrashReporterMonitor()])
/// ```
/// Until ``configure(_:)`` is called the monitors are one ``LoggingPreferencesMonitor``
/// with the label `keyscope.preferences`. Configuration happens once: the first call wins and later calls are
/// ignored (they return `false`), so a library cannot silently replace the app's choice. Tests that need their own
/// monitors pass `monitors:` to the wrapper instead.
public enum PreferencesMonitoring {
    private struct State {
        var monitors: [any PreferencesMonitor] = [LoggingPreferencesMonitor()]
        var configured = false
    }

    private static let state = Mutex(State())

    /// Sets the process-wide monitors, if they were never set. Returns whether this call set them; a later call
    /// changes nothing and returns `false`.
    @discardableResult
    public static func configure(_ monitors: [any PreferencesMonitor]) -> Bool {
        state.withLock { state in
            guard !state.configured else { return false }
            state.monitors = monitors
            state.configured = true
            return true
        }
    }

    /// Sets one process-wide monitor; see ``configure(_:)``.
    @discardableResult
    public static func configure(_ monitor: any PreferencesMonitor) -> Bool {
        configure([monitor])
    }

    /// Whether ``configure(_:)`` was called.
    public static var isConfigured: Bool { state.withLock { $0.configured } }

    /// The monitors in force: the configured ones, or the default logging monitor.
    public static var monitors: [any PreferencesMonitor] { state.withLock { $0.monitors } }
}

/// Where one wrapper sends its events: its own monitors, or the process-wide ones (looked up on each report).
struct PreferencesReporter: Sendable {
    let monitors: [any PreferencesMonitor]?
    let source: PreferenceEvent.Source
    let container: String
    let key: String

    func error(_ kind: PreferenceEvent.Kind, _ detail: String) {
        let event = PreferenceEvent(source: source, container: container, key: key, kind: kind, detail: detail)
        for monitor in monitors ?? PreferencesMonitoring.monitors { monitor.error(event) }
    }

    func message(_ kind: PreferenceEvent.Kind, _ detail: String) {
        let event = PreferenceEvent(source: source, container: container, key: key, kind: kind, detail: detail)
        for monitor in monitors ?? PreferencesMonitoring.monitors { monitor.message(event) }
    }
}
