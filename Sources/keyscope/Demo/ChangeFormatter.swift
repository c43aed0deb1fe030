import Foundation
import KeyscopeCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns store activity into the one-line, human-readable form the demo prints.
///
/// ```swift
/// ChangeFormatter.describe(StorePatch(op: .set, keyPath: "cart.total", oldValue: 90, newValue: 100))
/// // set cart.total 90 → 100
/// ```
/// Values are compact JSON with sorted keys; values longer than ``maxValueLength`` characters are elided with `…`.
enum ChangeFormatter {
    /// Longest value shown in full; longer ones keep their start and end `…`.
    static let maxValueLength = 60

    /// `<time>  <store>  [txn <id>  ]<patch>; <patch>…` for one change.
    static func line(for change: StoreChange, at date: Date = Date()) -> String {
        let patches = change.patches.map(describe).joined(separator: "; ")
        if let transactionID = change.transactionID {
            return prefix(change.storeID, at: date) + "txn \(shortID(transactionID))  " + patches
        }
        return prefix(change.storeID, at: date) + patches
    }

    /// `<time>  <store>  <text>` for anything else the demo reports about a store.
    static func line(_ text: String, store: StoreID, at date: Date = Date()) -> String {
        prefix(store, at: date) + text
    }

    /// One patch: `set cart.total 90 → 100`, `insert items[2] {"title":"Tea"}`, `remove cart.coupon (was "SAVE10")`.
    static func describe(_ patch: StorePatch) -> String {
        let path = pathText(patch.keyPath)
        switch patch.op {
        case .set:
            guard let new = patch.newValue else { return "set \(path)" }
            if let old = patch.oldValue { return "set \(path) \(value(old)) → \(value(new))" }
            return "set \(path) \(value(new))"
        case .insert:
            return "insert \(path) \(patch.newValue.map(value) ?? "null")"
        case .remove:
            guard let old = patch.oldValue else { return "remove \(path)" }
            return "remove \(path) (was \(value(old)))"
        case .merge:
            let merged = "merge \(path) \(patch.newValue.map(value) ?? "{}")"
            guard let old = patch.oldValue, old.objectValue?.isEmpty == false else { return merged }
            return merged + " (was \(value(old)))"
        }
    }

    /// A value as compact JSON with sorted keys, elided in the middle when long.
    static func value(_ value: StoreValue) -> String {
        elide(value.jsonText(sortedKeys: true))
    }

    /// `text` itself, or its start and end around `…` so that it is ``maxValueLength`` characters long.
    static func elide(_ text: String, limit: Int = maxValueLength) -> String {
        guard text.count > limit else { return text }
        let tail = limit / 3
        return String(text.prefix(limit - tail - 1)) + "…" + String(text.suffix(tail))
    }

    /// The canonical path, or `<root>` for the root (whose canonical form is empty).
    static func pathText(_ path: StoreKeyPath) -> String {
        path.isRoot ? "<root>" : path.description
    }

    /// The first 8 hex digits of a transaction id, lowercase: enough to tell transactions apart in a session.
    static func shortID(_ id: UUID) -> String {
        String(id.uuidString.lowercased().prefix(8))
    }

    /// Local wall-clock time with milliseconds: `14:03:07.250`.
    static func timestamp(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        var whole = time_t(seconds.rounded(.down))
        let millis = min(999, Int((seconds - seconds.rounded(.down)) * 1000))
        var parts = tm()
        localtime_r(&whole, &parts)
        return "\(twoDigits(Int(parts.tm_hour))):\(twoDigits(Int(parts.tm_min))):\(twoDigits(Int(parts.tm_sec)))."
            + threeDigits(millis)
    }

    private static func prefix(_ store: StoreID, at date: Date) -> String {
        "\(timestamp(date))  \(store)  "
    }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    private static func threeDigits(_ n: Int) -> String { n < 10 ? "00\(n)" : n < 100 ? "0\(n)" : "\(n)" }
}
