import CLibWebSockets
import Logging
import Synchronization

/// Sends libwebsockets' own errors and warnings to swift-log instead of stderr. Nothing else is asked of lws's log:
/// the server learns what happened to a connection from lws's callbacks, never from its log text.
///
/// lws's log setting is process-wide, so the last server started decides where lines go.
enum LwsLogging {
    private static let logger = Mutex<Logger?>(nil)

    static func install(_ target: Logger) {
        logger.withLock { $0 = target }
        lws_set_log_level(LLL_ERR | LLL_WARN, emit)
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
