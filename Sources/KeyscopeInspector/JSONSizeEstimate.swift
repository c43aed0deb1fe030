import Foundation
import KeyscopeCore

/// The approximate size of the JSON the hub writes for values, paths and log entries, without writing it.
///
/// Exact for strings, integers, booleans, null, arrays and objects (keys with `$` escaping included); finite doubles
/// count as 20 bytes, colors and URLs as their text plus the tag. It walks the value once and allocates nothing
/// (apart from a URL's text), which is several times cheaper than encoding: the hub pays it when it settles an entry,
/// so that the log's byte bound holds even for entries no client ever reads.
enum JSONSizeEstimate {
    static func of(_ value: StoreValue) -> Int {
        switch value {
        case .string(let s): return string(s)
        case .integer(let i): return digits(i)
        case .number(let d): return d.isFinite ? 20 : 18
        case .bool(let b): return b ? 4 : 5
        case .null: return 4
        case .color(let c): return 12 + c.hex.utf8.count
        case .url(let u): return 10 + u.absoluteString.utf8.count
        case .array(let elements):
            var total = 2 + max(0, elements.count - 1)
            for element in elements { total += of(element) }
            return total
        case .object(let members):
            var total = 2 + max(0, members.count - 1)
            for (key, member) in members {
                total += string(key) + 1 + of(member)
                if key.utf8.first == UInt8(ascii: "$") { total += 1 }
            }
            return total
        }
    }

    /// A quoted JSON string: escapes counted as the writer makes them.
    static func string(_ s: String) -> Int { JSONEscaping.quotedLength(of: s) }

    /// A key path in its canonical form, quoted (quoted keys approximated by their text plus 4).
    static func path(_ path: StoreKeyPath) -> Int {
        var total = 2
        for segment in path.segments {
            switch segment {
            case .key(let key): total += key.utf8.count + 1
            case .index(let index): total += digits(Int64(index)) + 2
            }
        }
        return total
    }

    /// `{"op":"set","path":…,"old":…,"new":…}`.
    static func patch(_ patch: StorePatch) -> Int {
        var total = 20 + patch.op.rawValue.utf8.count + path(patch.keyPath)
        if let old = patch.oldValue { total += 7 + of(old) }
        if let new = patch.newValue { total += 7 + of(new) }
        return total
    }

    static func digits(_ value: Int64) -> Int {
        var count = value < 0 ? 2 : 1
        var rest = value / 10
        while rest != 0 {
            count += 1
            rest /= 10
        }
        return count
    }
}
