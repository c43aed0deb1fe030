import Foundation

/// Where the CLI's own output goes: each line is one `write` to standard output, so lines arrive whole and at
/// once even when stdout is a pipe, and lines from different threads never interleave.
///
/// ```swift
/// Console.line("12:00:01.234  app/memory  set cart.total 90 → 100")
/// ```
enum Console {
    /// Writes `text` and a newline to standard output, unbuffered.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes `text` and a newline to standard error, unbuffered.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
