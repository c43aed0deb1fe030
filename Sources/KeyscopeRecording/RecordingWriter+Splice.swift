import KeyscopeCore

/// The writer's fast path: an event line the hub has encoded already (``KeyscopeInspector/HubLogEntry/lineBytes``,
/// shared with every client) renumbered and given the recorder's members, instead of being encoded again.
///
/// The hub's lines have sorted keys: `{"patches":[…],"seq":N,"store":…,"time":…,"txn":…}` for a change and
/// `{"event":"…",["root":…,]"seq":N,"store":…,"time":…[,"version":…]}` for a store event. Every member after
/// `seq` is a string (or `null`), and a string never holds an unescaped `"`, so the last `"seq":` of such a line is
/// its own `seq` and the last `,"time":"` its own `time`. The members are put where sorted keys would put them, so
/// the result reads exactly like the codec's own encoding of the same event (bar the case of `txn`'s hex digits).
enum RecordingSplice {
    /// `line` with its `seq` replaced by `seq`, `liveSeq` added, and `subscriptions` (already JSON) when given;
    /// `nil` when `line` does not have the shape described above (the caller encodes the event instead).
    static func renumber(_ line: [UInt8], seq: Int, liveSeq: Int?, subscriptions: [UInt8]?) -> [UInt8]? {
        guard line.first == UInt8(ascii: "{"), line.last == UInt8(ascii: "}"),
            let seqKey = lastRange(of: seqMarker, in: line),
            let time = lastRange(of: timeMarker, in: line), time.lowerBound > seqKey.upperBound
        else { return nil }
        var digitsEnd = seqKey.upperBound
        while digitsEnd < line.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[digitsEnd]) {
            digitsEnd += 1
        }
        guard digitsEnd > seqKey.upperBound, line[digitsEnd...].starts(with: storeMarker) else { return nil }
        // Where `liveSeq` goes: first in a change; after `"event":"kind",` in a store event.
        var liveSeqAt = 1
        if line.starts(with: eventMarker) {
            guard let end = firstRange(of: [UInt8(ascii: "\""), UInt8(ascii: ",")], in: line, from: eventMarker.count)
            else { return nil }
            liveSeqAt = end.upperBound
        }
        var out: [UInt8] = []
        out.reserveCapacity(line.count + 40 + (subscriptions?.count ?? 0))
        out += line[..<liveSeqAt]
        if let liveSeq { out += Array("\"liveSeq\":\(liveSeq),".utf8) }
        out += line[liveSeqAt..<seqKey.upperBound]
        out += Array(String(seq).utf8)
        out += line[digitsEnd..<time.lowerBound]
        if let subscriptions {
            out += Array(",\"subscriptions\":".utf8)
            out += subscriptions
        }
        out += line[time.lowerBound...]
        return out
    }

    private static let seqMarker = Array("\"seq\":".utf8)
    private static let storeMarker = Array(",\"store\":\"".utf8)
    private static let timeMarker = Array(",\"time\":\"".utf8)
    private static let eventMarker = Array("{\"event\":\"".utf8)

    private static func lastRange(of needle: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
        guard bytes.count >= needle.count else { return nil }
        var start = bytes.count - needle.count
        while start >= 0 {
            if bytes[start] == needle[0], bytes[start..<(start + needle.count)].elementsEqual(needle) {
                return start..<(start + needle.count)
            }
            start -= 1
        }
        return nil
    }

    private static func firstRange(of needle: [UInt8], in bytes: [UInt8], from: Int) -> Range<Int>? {
        var start = from
        while start + needle.count <= bytes.count {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return start..<(start + needle.count) }
            start += 1
        }
        return nil
    }
}
