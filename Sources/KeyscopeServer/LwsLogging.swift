import CLibWebSockets
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sends libwebsockets' own errors and warnings to swift-log instead of stderr, and notices from its info lines
/// why it gave up parsing a request, which lws 4.1 does by dropping the socket without a word: the server then
/// answers 431 (headers over the limit) or 400 (a request it cannot parse) itself (see ``ServerCore``).
///
/// lws's log setting is process-wide, so the last server started decides where lines go. Parse failures are
/// kept per thread: each server's service thread reads its own.
enum LwsLogging {
    /// Why lws dropped the request it was parsing.
    enum ParseFailure: Sendable {
        /// The request line and headers overflowed the header buffer (the `--max-header` limit).
        case tooLarge
        /// lws could not parse the request (a bad escape such as `%00`, a broken request line).
        case malformed
        /// lws answered the client itself before dropping it: nothing more to say.
        case answered
    }

    private static let logger = Mutex<Logger?>(nil)
    private static let failures = Mutex<[UInt: ParseFailure]>([:])

    static func install(_ target: Logger) {
        logger.withLock { $0 = target }
        lws_set_log_level(LLL_ERR | LLL_WARN | LLL_INFO, emit)
    }

    /// The connection pointer lws printed with `%p` (`0x7f…`).
    private static func connection(named text: UnsafePointer<CChar>) -> OpaquePointer? {
        var end: UnsafeMutablePointer<CChar>?
        let value = strtoull(text, &end, 16)
        guard value != 0, let end, end.pointee == CChar(UInt8(ascii: ":")) else { return nil }
        return OpaquePointer(bitPattern: UInt(value))
    }

    /// The parse failure lws reported on this thread since the last call, if any.
    static func takeParseFailure() -> ParseFailure? {
        let thread = threadKey
        return failures.withLock { $0.removeValue(forKey: thread) }
    }

    private static var threadKey: UInt {
        // pthread_t is an integer on Linux and a pointer on Apple platforms.
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    private static func note(_ failure: ParseFailure) {
        let thread = threadKey
        failures.withLock { table in
            switch (table[thread], failure) {
            case (.answered?, _), (.tooLarge?, .malformed): break
            default: table[thread] = failure
            }
        }
    }

    /// lws errors are mostly about one bad client (a dropped socket, a malformed request): worth a notice, not an
    /// error of the service. Info lines are only scanned, never logged.
    private static let emit: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { level, line in
        guard let line else { return }
        if strstr(line, "Ran out of header data space") != nil || strstr(line, "more hdr frags") != nil {
            note(.tooLarge)
        } else if strstr(line, "forbidding on uri sanitation") != nil {
            note(.answered)
        } else if strstr(line, "lws_parse failed") != nil {
            note(.malformed)
        } else if let bail = strstr(line, "__lws_close_free_wsi: "), strstr(line, "lws_read_h1 bail") != nil {
            // lws is about to shut the socket of the request it failed to parse; the line names the connection.
            if let failure = takeParseFailure(), let wsi = connection(named: bail + 22) {
                ServerCore.of(wsi)?.answer(wsi, failure)
            }
        }
        guard level & (LLL_ERR | LLL_WARN) != 0 else { return }
        var text = String(cString: line)
        while text.last == "\n" { text.removeLast() }
        let swiftLevel: Logger.Level = level & LLL_ERR != 0 ? .notice : .debug
        LwsLogging.logger.withLock { $0 }?.log(level: swiftLevel, "lws: \(text)")
    }
}
