import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns SIGINT and SIGTERM into a call, so that a command can stop cleanly (close clients, remove its server
/// record, print its summary).
///
/// ```swift
/// let watcher = SignalWatcher([SIGINT, SIGTERM]) { _ in task.cancel() }
/// defer { watcher.stop() }
/// ```
/// The handler is a plain `sigaction` handler, installed before `init` returns, that writes the signal's number to a
/// pipe (the one thing a handler may safely do); a thread reads the pipe and makes the call. So a signal that comes
/// the moment after `init` is never lost and never kills the process. After the first signal the default action is
/// restored, so a second Ctrl-C ends the process at once.
struct SignalWatcher {
    private let signals: [Int32]

    init(_ signals: [Int32], onSignal: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        let readEnd = SignalPipe.open()
        let thread = Thread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 {
                let number = Int32(byte)
                signal(number, SIG_DFL)
                onSignal(number)
            }
        }
        thread.start()
        for number in signals { signal(number, signalToPipe) }
    }

    /// Stops listening: the signals get their default action back.
    func stop() {
        for number in signals { signal(number, SIG_DFL) }
    }
}

/// The write end of the pipe the handler writes to; set once, before any handler is installed.
private enum SignalPipe {
    nonisolated(unsafe) static var writeEnd: Int32 = -1
    private static let made = Mutex<Int32?>(nil)

    /// The read end (one pipe per process, made on first use).
    static func open() -> Int32 {
        made.withLock { readEnd in
            if let readEnd { return readEnd }
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { fatalError("keyscope: cannot make a pipe for signals") }
            writeEnd = ends[1]
            readEnd = ends[0]
            return ends[0]
        }
    }
}

/// The signal handler: async-signal-safe, it only writes one byte.
private func signalToPipe(_ number: Int32) {
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(SignalPipe.writeEnd, &byte, 1)
}
