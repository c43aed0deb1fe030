import ArgumentParser
import Foundation
import KeyscopeRecording

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The recording a replay command reads: a file, or standard input for `-`, with the line limit and how to report
/// its errors.
///
/// ```swift
/// let reader = try RecordingInput(path: "session.kslog", maxLine: ByteSize(bytes: 64 << 20)).open()
/// ```
struct RecordingInput: Sendable {
    let path: String
    let maxLine: ByteSize

    /// Whether the recording comes from standard input.
    var isStandardInput: Bool { path == "-" }

    /// The name errors and summaries use: the path, or `standard input`.
    var name: String { isStandardInput ? "standard input" : path }

    /// A reader positioned after the header.
    /// - Throws: a ``CommandFailure`` naming the file, the line and the reason.
    func open() throws -> RecordingReader {
        do {
            let lines =
                isStandardInput
                ? LineReader.standardInput(maxLineLength: maxLine.bytes)
                : try LineReader(contentsOf: URL(fileURLWithPath: path), maxLineLength: maxLine.bytes)
            return try RecordingReader(lines: lines)
        } catch {
            throw failure(error)
        }
    }

    /// The size of the file in bytes, when it is a regular file (for a progress bar).
    var fileSize: Int? {
        guard !isStandardInput else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// `FILE: line N: reason (code)`, as the commands report a bad recording.
    func failure(_ error: RecordingError) -> CommandFailure {
        CommandFailure("\(name): \(error) (\(error.code))")
    }

    /// The warning for a torn tail, or `nil` when there is none.
    func tornTailWarning(_ summary: RecordingSummary) -> String? {
        guard summary.tornTailBytes > 0 else { return nil }
        return "warning: \(name): the last \(summary.tornTailBytes) bytes after line \(summary.lines) have no final "
            + "newline (a torn tail, as a crash leaves it); they were dropped"
    }
}

/// The `--max-line` option of the replay commands.
struct MaxLineOption: ParsableArguments {
    @Option(
        name: .customLong("max-line"),
        help: ArgumentHelp(
            "Longest line accepted (memory holds a few lines at a time); a longer one is an error.", valueName: "SIZE"))
    var maxLine = ByteSize(bytes: LineReader.defaultMaxLineLength)
}
