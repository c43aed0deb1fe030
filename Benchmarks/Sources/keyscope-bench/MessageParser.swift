import CBenchJansson

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the benchmark client learnt from one server message.
struct MessageSummary {
    enum Kind { case changes, snapshot, gap, other }

    var kind: Kind
    /// The number of log entries (`changes`).
    var entries = 0
    /// The seq of the last entry (`changes`) or of the snapshot (`snapshot`).
    var seq: Int?
}

/// Reads the client's messages: every one parsed whole with jansson (`json_loadb`), the way a real client's JSON
/// library would, or, for the reference client that does not parse, `changes` messages only skimmed for their last
/// seq. This is the only file that sees jansson; each `json_t` lives and dies within one call.
enum MessageParser {
    /// Parses `bytes` as one JSON object; for `changes` counts the `entries` array and, when `timed`, appends to
    /// `latencies` `receivedAt` minus the send stamp found at the start of each entry's first patch's `new` string.
    static func parse(
        _ bytes: UnsafeRawBufferPointer, timed: Bool = false, receivedAt: UInt64 = 0, latencies: inout [UInt64]
    ) -> MessageSummary? {
        var error = json_error_t()
        guard let base = bytes.baseAddress,
            let root = json_loadb(base.assumingMemoryBound(to: CChar.self), bytes.count, 0, &error)
        else { return nil }
        defer { json_decref(root) }
        guard let type = json_string_value(json_object_get(root, "type")) else { return MessageSummary(kind: .other) }
        if strcmp(type, "changes") == 0 {
            guard let list = json_object_get(root, "entries") else { return nil }
            let count = json_array_size(list)
            var summary = MessageSummary(kind: .changes, entries: count)
            if count > 0 {
                summary.seq = Int(json_integer_value(json_object_get(json_array_get(list, count - 1), "seq")))
            }
            if timed {
                for index in 0..<count {
                    let patch = json_array_get(json_object_get(json_array_get(list, index), "patches"), 0)
                    if let stamp = json_string_value(json_object_get(patch, "new")), let sent = leadingNumber(stamp) {
                        latencies.append(receivedAt &- sent)
                    }
                }
            }
            return summary
        }
        if strcmp(type, "snapshot") == 0 {
            return MessageSummary(kind: .snapshot, seq: Int(json_integer_value(json_object_get(root, "seq"))))
        }
        if strcmp(type, "gap") == 0 { return MessageSummary(kind: .gap) }
        return MessageSummary(kind: .other)
    }

    private static let changesPrefix = Array(#"{"type":"changes","entries":["#.utf8)
    private static let seqKey = Array(#""seq":"#.utf8)

    /// Without parsing: whether `bytes` is a `changes` message, and the seq of its last entry, found by scanning back
    /// from the end for `"seq":` (the log lines have sorted keys, so it follows the patches of the last entry; the
    /// benchmark's values never contain it). `nil` for any other message.
    static func skim(_ bytes: UnsafeRawBufferPointer) -> MessageSummary? {
        guard bytes.count > changesPrefix.count, bytes.starts(with: changesPrefix) else { return nil }
        var index = bytes.count - seqKey.count
        while index > changesPrefix.count {
            if bytes[index] == UInt8(ascii: "\""), bytes[index..<(index + seqKey.count)].elementsEqual(seqKey) {
                var seq = 0
                var digit = index + seqKey.count
                while digit < bytes.count, (48...57).contains(bytes[digit]) {
                    seq = seq * 10 + Int(bytes[digit] - 48)
                    digit += 1
                }
                return MessageSummary(kind: .changes, seq: seq)
            }
            index -= 1
        }
        return MessageSummary(kind: .changes)
    }

    /// The decimal number at the start of a C string (the producer's send stamp), if there is one.
    private static func leadingNumber(_ text: UnsafePointer<CChar>) -> UInt64? {
        var value: UInt64 = 0
        var pointer = text
        while pointer.pointee >= 48, pointer.pointee <= 57 {
            value = value * 10 + UInt64(pointer.pointee - 48)
            pointer += 1
        }
        return pointer == text ? nil : value
    }
}
