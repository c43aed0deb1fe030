import CLibWebSockets

/// How much libwebsockets itself prints on stderr. The setting is global to the process (lws has one log level),
/// so it affects an inspector server in the same process too; a command-line tool sets it once at start.
///
/// ```swift
/// LibWebSocketsLogging.set(.errors)     // keep lws's notices ("LWS: 4.1.6 …") off a CLI's stderr
/// ```
public enum LibWebSocketsLogging: Sendable, Hashable {
    /// Nothing.
    case silent
    /// Errors only.
    case errors
    /// Errors and warnings (a refused upgrade is a warning).
    case warnings
    /// lws's own default: errors, warnings and notices.
    case notices

    /// Sets lws's log level for the whole process.
    public static func set(_ level: LibWebSocketsLogging) {
        let mask: Int32
        switch level {
        case .silent: mask = 0
        case .errors: mask = LLL_ERR
        case .warnings: mask = LLL_ERR | LLL_WARN
        case .notices: mask = LLL_ERR | LLL_WARN | LLL_NOTICE
        }
        lws_set_log_level(mask, nil)
    }
}
