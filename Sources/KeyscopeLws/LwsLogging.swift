import CLibWebSockets
package import Logging
import Synchronization

/// Where libwebsockets' own log lines go: on stderr (lws's own printing, what a command-line client wants), or to
/// swift-log (what a server embedded in a service wants). Nothing else is asked of lws's log: the server learns what
/// happened to a connection from lws's callbacks, never from its log text.
///
/// ```swift
/// LwsLogging.print([.errors])        // a CLI: lws's errors on stderr, its notices ("LWS: 4.1.6 …") not
/// LwsLogging.route(to: logger)       // a server: lws's errors and warnings through the service's logger
/// ```
/// lws has one log setting for the whole process, so the last call decides, for every context.
package enum LwsLogging {
    /// lws's log levels this module uses.
    package struct Levels: OptionSet, Sendable, Hashable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }

        package static let errors = Levels(rawValue: LLL_ERR)
        package static let warnings = Levels(rawValue: LLL_WARN)
        package static let notices = Levels(rawValue: LLL_NOTICE)
    }

    private static let logger = Mutex<Logger?>(nil)

    /// lws prints these levels on stderr itself.
    package static func print(_ levels: Levels) {
        logger.withLock { $0 = nil }
        lws_set_log_level(levels.rawValue, lwsl_emit_stderr)
    }

    /// lws's errors and warnings go to `target`.
    package static func route(to target: Logger) {
        logger.withLock { $0 = target }
        lws_set_log_level(Levels([.errors, .warnings]).rawValue, emit)
    }

    /// lws errors are mostly about one bad client (a dropped socket, a malformed request): worth a notice, not an
    /// error of the service.
    private static let emit: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { level, line in
        guard let line else { return }
        var text = String(cString: line)
        while text.last == "\n" { text.removeLast() }
        let swiftLevel: Logger.Level = level & LLL_ERR != 0 ? .notice : .debug
        LwsLogging.logger.withLock { $0 }?.log(level: swiftLevel, "lws: \(text)")
    }
}
