import Foundation
import KeyscopeCodec
import KeyscopeRecording

/// The summary of a recording as `verify` and `replay` print it: one aligned line per fact.
///
/// ```
/// events    3 (2 changes with 3 patches, 1 store event)
/// stores    1 at the start, 2 at the end
/// recorded  2026-11-21T10:00:00.125000Z to 2026-11-21T10:00:01.250000Z (1.125 s)
/// read      986 bytes, 4 lines
/// digest    6b0c…  (sha256 of `keyscope state FILE`)
/// ```
enum SummaryText {
    static func lines(_ summary: RecordingSummary) -> [String] {
        var lines: [String] = []
        let storeEvents = summary.storeEvents == 1 ? "1 store event" : "\(summary.storeEvents) store events"
        let changes = summary.changes == 1 ? "1 change" : "\(summary.changes) changes"
        let patches = summary.patches == 1 ? "1 patch" : "\(summary.patches) patches"
        lines.append("events    \(summary.events) (\(changes) with \(patches), \(storeEvents))")
        lines.append("stores    \(summary.storesAtStart) at the start, \(summary.storesAtEnd) at the end")
        if let first = summary.firstEventTime, let last = summary.lastEventTime, let duration = summary.duration {
            lines.append("recorded  \(first) to \(last) (\(seconds(duration)))")
        } else {
            lines.append("recorded  \(summary.createdAt) (no events)")
        }
        let torn = summary.tornTailBytes > 0 ? ", \(summary.tornTailBytes) of them a torn tail" : ""
        lines.append("read      \(summary.bytesRead) bytes\(torn), \(summary.lines) lines")
        lines.append("digest    \(summary.stateDigest)  (sha256 of `keyscope state`)")
        return lines
    }

    /// `1.125 s`, `0.000 s`, `12 min 5.250 s`.
    static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        let text = String(format: "%.3f s", Double(whole % 60) + Double(attoseconds) / 1e18)
        return whole >= 60 ? "\(whole / 60) min \(text)" : text
    }
}
