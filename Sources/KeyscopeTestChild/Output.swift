#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered output: every line reaches the pipe before the call returns, so a parent that kills the child right
/// after reading a line knows everything the child printed up to then.
enum Output {
    static func line(_ text: String) { write(text + "\n", to: 1) }

    static func error(_ text: String) { write(text + "\n", to: 2) }

    /// Prints `message` on stderr and ends the process with `code` (sysexits.h numbers).
    static func fail(_ message: String, code: Int32) -> Never {
        error("KeyscopeTestChild: " + message)
        exit(code)
    }

    private static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { raw in
                systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                exit(74)  // EX_IOERR: the parent went away
            }
            offset += n
        }
    }
}

/// `write(2)`, named apart from the Swift `write` methods in scope.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}

/// sysexits.h codes the child uses.
enum ExitCode {
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let software: Int32 = 70
}
