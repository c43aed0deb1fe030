/// Something that happened to one preference or secret: where (source, container, key), what kind of thing, and a
/// sentence saying what exactly. What ``PreferencesMonitor``s receive.
///
/// ```swift
/// // readFailed userDefaults/com.shop/theme: the stored value is not JSON of Theme and no plain value of it …
/// let event = PreferenceEvent(
///     source: .userDefaults, container: "com.shop", key: "theme", kind: .readFailed,
///     detail: "the stored value is not JSON of Theme; the default is used")
/// ```
/// A `detail` never holds a secret's value: events about secrets describe what failed (a code, a coding path, a
/// byte count), never the bytes themselves.
public struct PreferenceEvent: Sendable, Hashable, CustomStringConvertible {
    /// Where the value lives.
    public enum Source: String, Sendable, Hashable, CaseIterable {
        /// A UserDefaults suite (``UserDefaultValue``, ``StatusTracker``).
        case userDefaults
        /// A secret store, the keychain's role (``KeychainValue``).
        case secrets
    }

    /// What happened. A struct over codes, so that kinds can be added later.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Error: the stored value could not be read or decoded; the default was used instead.
        public static let readFailed = Kind(rawValue: "readFailed")
        /// Error: a new value could not be encoded or saved; the stored value is unchanged.
        public static let writeFailed = Kind(rawValue: "writeFailed")
        /// Error: the suite or the secret store cannot be used at all (a refused suite name, no store configured).
        public static let unavailable = Kind(rawValue: "unavailable")
        /// Message: a new value was stored.
        public static let written = Kind(rawValue: "written")
        /// Message: the value was set to its default, so the stored key or item was removed.
        public static let removed = Kind(rawValue: "removed")
        /// Message: the stored value was a plain value written by older code (not JSON) and was read as one.
        public static let readPlainValue = Kind(rawValue: "readPlainValue")
        /// Message: someone else (another instance, the inspector, another process) changed the stored value.
        public static let changedElsewhere = Kind(rawValue: "changedElsewhere")
    }

    public var source: Source
    /// The suite name (`standard` for the standard defaults) or the secret service.
    public var container: String
    /// The preference key, or the secret's account.
    public var key: String
    public var kind: Kind
    /// What happened, in words: what was wrong and what was done about it. Never a secret's value.
    public var detail: String

    public init(source: Source, container: String, key: String, kind: Kind, detail: String) {
        self.source = source
        self.container = container
        self.key = key
        self.kind = kind
        self.detail = detail
    }

    /// `readFailed userDefaults/com.shop/theme: …`.
    public var description: String { "\(kind) \(source.rawValue)/\(container)/\(key): \(detail)" }
}

/// Hears what the preference wrappers do: their errors (a value that does not decode, a save that failed) and
/// their messages (writes, removals, values read through the plain-value fallback, changes made elsewhere).
///
/// ```swift
/// struct CrashReporterMonitor: PreferencesMonitor {
///     func error(_ event: PreferenceEvent) { CrashReporter.record("\(event)") }
///     func message(_ event: PreferenceEvent) {}
/// }
/// PreferencesMonitoring.configure([LoggingPreferencesMonitor(), CrashReporterMonitor()])
/// ```
/// Called synchronously on the thread that read or wrote the value, never under a lock of the wrappers: keep it
/// quick. Errors never reach the app as thrown errors: the wrappers return the default (reads) or keep the old
/// value (writes) and tell their monitors.
public protocol PreferencesMonitor: Sendable {
    /// Something failed; the wrapper carried on with the default or the old value.
    func error(_ event: PreferenceEvent)
    /// Something worth knowing happened (a write, a removal, a fallback read, an outside change).
    func message(_ event: PreferenceEvent)
}
