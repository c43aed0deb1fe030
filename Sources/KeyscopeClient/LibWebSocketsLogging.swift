import KeyscopeLws

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

    /// Sets lws's log level for the whole process; the lines it keeps go to stderr.
    public static func set(_ level: LibWebSocketsLogging) {
        switch level {
        case .silent: LwsLogging.print([])
        case .errors: LwsLogging.print([.errors])
        case .warnings: LwsLogging.print([.errors, .warnings])
        case .notices: LwsLogging.print([.errors, .warnings, .notices])
        }
    }
}
