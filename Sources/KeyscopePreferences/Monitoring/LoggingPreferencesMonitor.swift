public import Logging

/// A ``PreferencesMonitor`` that writes through swift-log: errors at `error`, messages at `messageLevel` (`debug`
/// by default), each with the source, container, key and kind as metadata. The default monitor of
/// ``PreferencesMonitoring``.
///
/// ```swift
/// PreferencesMonitoring.configure(LoggingPreferencesMonitor(logger: Logger(label: "shop.preferences"), messageLevel: .info))
/// // error: readFailed userDefaults/com.shop/theme: … [container: com.shop, key: theme, kind: readFailed, …]
/// ```
/// It logs only what the event says: events about secrets never carry their values, so neither do these lines.
public struct LoggingPreferencesMonitor: PreferencesMonitor {
    public var logger: Logger
    /// The level of ``message(_:)`` lines.
    public var messageLevel: Logger.Level

    public init(logger: Logger = Logger(label: "keyscope.preferences"), messageLevel: Logger.Level = .debug) {
        self.logger = logger
        self.messageLevel = messageLevel
    }

    public func error(_ event: PreferenceEvent) {
        logger.error("\(event)", metadata: Self.metadata(of: event))
    }

    public func message(_ event: PreferenceEvent) {
        logger.log(level: messageLevel, "\(event)", metadata: Self.metadata(of: event))
    }

    private static func metadata(of event: PreferenceEvent) -> Logger.Metadata {
        [
            "source": "\(event.source.rawValue)", "container": "\(event.container)", "key": "\(event.key)",
            "kind": "\(event.kind.rawValue)",
        ]
    }
}
