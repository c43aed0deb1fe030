import Foundation
import KeyscopeCodec
import KeyscopeCore

/// The lines `keyscope tail` prints for log entries (docs/recording.md events from the server's `changes` messages).
///
/// ```swift
/// TailFormatter.line(entry)
/// // #42 12:03:04.123 app/memory set cart.total 99.5 → 104.5
/// // #43 12:03:04.180 app/memory txn 1f0c9a2e set cart.total 104.5 → 110.5; remove cart.coupon (was "SAVE10")
/// // #44 12:03:05.002 scenario:checkout/memory registered, version 1.0.0, {}
/// ```
/// Times are local wall-clock time with milliseconds; patches and values are written as the demo writes them
/// (``ChangeFormatter``): compact JSON with sorted keys, long values elided with `…`.
enum TailFormatter {
    /// `#<seq> <time> <store> [txn <id8> ]<patch>; <patch>…`, or the store event in words.
    static func line(_ entry: LogEntry, timestamp: (Date) -> String = ChangeFormatter.timestamp) -> String {
        let head = "#\(entry.seq) \(timestamp(entry.time.date)) \(entry.event.storeID) "
        switch entry.event {
        case .change(let change):
            let patches =
                change.patches.isEmpty
                ? "(no patches)" : change.patches.map(ChangeFormatter.describe).joined(separator: "; ")
            guard let transaction = change.transactionID else { return head + patches }
            return head + "txn \(ChangeFormatter.shortID(transaction)) " + patches
        case .registered(_, let version, let root):
            return head + "registered, version \(version), \(ChangeFormatter.value(root))"
        case .reset(_, let version):
            return head + "reset to {} for version \(version)"
        case .removed:
            return head + "removed"
        }
    }

    /// The notice for `{"type": "gap", "from": A, "to": B}`.
    /// On a fleet dashboard's merged stream the gap names its instance, and no snapshot follows.
    static func gapNotice(from: Int64, to: Int64, instance: String? = nil) -> String {
        let range = from == to ? "entry #\(from) was" : "entries #\(from)…#\(to) were"
        guard let instance else {
            return "keyscope tail: gap: \(range) not sent to this client (it fell behind); following on from the "
                + "fresh snapshot"
        }
        return "keyscope tail: gap: \(instance)'s \(range) not sent to this client (it fell behind); following on"
    }
}
