public import Foundation

/// One named status whose current value a provider tells (`"yes"`/`"no"`, a mode, a version…), mirrored by a
/// ``StatusTracker`` into the preference key `p_<name>`.
///
/// ```swift
/// let writable = WatchedStatus("DataDirWritable") {
///     FileManager.default.isWritableFile(atPath: dataDirectory.path) ? "yes" : "no"
/// }
/// ```
/// The provider is called on the thread that refreshes (the caller of ``StatusTracker/refresh()``, or the
/// tracker's timer queue): keep it quick and never call back into the tracker from it.
public struct WatchedStatus: Sendable {
    /// The status' name; its preference key is ``key``.
    public let name: String
    /// Tells the status' value now.
    public let provider: @Sendable () -> String

    public init(_ name: String, provider: @escaping @Sendable () -> String) {
        self.name = name
        self.provider = provider
    }

    /// The preference key the status is mirrored into: `p_<name>`.
    public var key: String { StatusTracker.keyPrefix + name }
}

/// One change of a status' stored value, as ``StatusTracker`` recorded it.
public struct StatusChange: Sendable, Hashable {
    /// When the change was written.
    public let time: Date
    /// The value stored before; `nil` when the key was created.
    public let before: String?
    /// The value stored since.
    public let after: String

    public init(time: Date, before: String?, after: String) {
        self.time = time
        self.before = before
        self.after = after
    }
}

/// A status as ``StatusTracker/summary()`` reports it: what the provider said at the last check and what the
/// preference key holds now.
public struct StatusSummary: Sendable, Hashable {
    public let name: String
    /// The preference key, `p_<name>`.
    public let key: String
    /// What the provider said at the last check; `nil` before the first one.
    public let value: String?
    /// What the preference key holds now (read when the summary is made); `nil` when it is missing.
    public let stored: String?
    /// When the provider was last asked; `nil` before the first check.
    public let checked: Date?
    /// The latest changes, oldest first.
    public let history: [StatusChange]

    public init(
        name: String, key: String, value: String?, stored: String?, checked: Date?, history: [StatusChange]
    ) {
        self.name = name
        self.key = key
        self.value = value
        self.stored = stored
        self.checked = checked
        self.history = history
    }

    /// Whether the key holds what the provider said (`false` when someone changed the key behind the tracker's
    /// back since, until the next refresh repairs it).
    public var inSync: Bool { value != nil && value == stored }
}
