import Foundation
import KeyscopeCodec

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The progress bar of `keyscope replay` on stderr, drawn only when stderr is a terminal and redrawn at most ten
/// times a second:
///
/// ```
/// [##########----------]  50%  seq 1200  1.2 MB of 2.4 MB  recorded 10:00:05.125
/// ```
/// Without a known file size (standard input) the bar and percentage are left out.
final class ReplayProgress {
    private let total: Int?
    private let enabled: Bool
    private let clock = ContinuousClock()
    private var lastDraw: ContinuousClock.Instant?
    private var drawn = false

    /// A progress bar for a recording of `total` bytes (`nil` when unknown).
    init(total: Int?, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.total = total
        self.enabled = enabled
    }

    /// Redraws if a tenth of a second has passed since the last time.
    func update(seq: Int64, time: LogTime, bytesRead: Int) {
        guard enabled else { return }
        let now = clock.now
        if let lastDraw, now - lastDraw < .milliseconds(100) { return }
        lastDraw = now
        var line = ""
        if let total, total > 0 {
            let fraction = min(1, Double(bytesRead) / Double(total))
            let filled = Int((fraction * 20).rounded(.down))
            line += "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled) + "] "
            line += String(format: "%3d%%  ", Int(fraction * 100))
        }
        line += "seq \(seq)  \(Self.megabytes(bytesRead))"
        if let total { line += " of \(Self.megabytes(total))" }
        line += "  recorded " + time.rfc3339.dropFirst(11).prefix(12)
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
        drawn = true
    }

    /// Erases the bar, so that what follows starts on a clean line.
    func finish() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }

    private static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
