import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns SIGINT and SIGTERM into a call, so that the demo can stop cleanly and print its summary.
///
/// ```swift
/// let watcher = SignalWatcher([SIGINT, SIGTERM]) { _ in task.cancel() }
/// defer { watcher.stop() }
/// ```
/// After the first signal the default action is restored, so a second Ctrl-C ends the process at once.
struct SignalWatcher {
    private let sources: [any DispatchSourceSignal]

    init(_ signals: [Int32], onSignal: @escaping @Sendable (Int32) -> Void) {
        sources = signals.map { number in
            // The default action must be off for the dispatch source to see the signal instead of the process dying.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                signal(number, SIG_DFL)
                onSignal(number)
            }
            source.resume()
            return source
        }
    }

    /// Stops listening; the signals keep whatever action they have now.
    func stop() {
        for source in sources { source.cancel() }
    }
}
