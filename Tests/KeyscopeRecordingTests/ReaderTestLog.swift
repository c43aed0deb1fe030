import KeyscopeCodec
import KeyscopeCore
import KeyscopeRecording

/// Recordings written by hand for the reader's tests: a header with `app/memory` holding `{"cart": {"total": 90}}`
/// and event lines built from their parts.
enum TestLog {
    static let header =
        #"{"createdAt":"2026-11-21T10:00:00.000000Z","format":"keyscope-log","stores":[{"id":"app/memory","#
        + #""root":{"cart":{"total":90}},"version":"1.4.0"}],"version":1}"#

    /// A change line; `patches` is the JSON array's inside.
    static func change(
        _ seq: Int, _ patches: String, store: String = "app/memory", txn: String = "null", second: Int = 0
    ) -> String {
        #"{"patches":[\#(patches)],"seq":\#(seq),"store":"\#(store)","time":"\#(time(second))","txn":\#(txn)}"#
    }

    /// `set cart.total old → new`.
    static func setTotal(_ seq: Int, from old: Int, to new: Int) -> String {
        change(seq, #"{"new":\#(new),"old":\#(old),"op":"set","path":"cart.total"}"#, second: seq)
    }

    /// A store event line; `members` are extra members such as `"version":"1.0.0","root":{}`.
    static func event(_ seq: Int, _ kind: String, store: String, _ members: String = "") -> String {
        let extra = members.isEmpty ? "" : "," + members
        return #"{"event":"\#(kind)","seq":\#(seq),"store":"\#(store)","time":"\#(time(seq))"\#(extra)}"#
    }

    static func time(_ second: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "2026-11-21T10:\(two(second / 60 % 60)):\(two(second % 60)).000000Z"
    }

    /// The lines joined, each ended by `\n` unless `finalNewline` is false for the last.
    static func bytes(_ lines: [String], finalNewline: Bool = true) -> [UInt8] {
        Array((lines.joined(separator: "\n") + (finalNewline ? "\n" : "")).utf8)
    }

    /// Every event of `bytes`, read with chunks of `chunkSize` bytes.
    static func events(_ bytes: [UInt8], chunkSize: Int = LineReader.defaultChunkSize) throws -> [LogEntry] {
        let reader = try RecordingReader(bytes: bytes, chunkSize: chunkSize)
        var entries: [LogEntry] = []
        while let entry = try reader.next() { entries.append(entry) }
        return entries
    }

    /// The error reading and replaying `bytes` ends with, or `nil` when it reads to the end.
    static func error(_ bytes: [UInt8], maxLineLength: Int = LineReader.defaultMaxLineLength) -> RecordingError? {
        do {
            let reader = try RecordingReader(bytes: bytes, maxLineLength: maxLineLength)
            _ = try reader.replay()
            return nil
        } catch let error as RecordingError {
            return error
        } catch {
            return RecordingError(.io, line: nil, "unexpected \(error)")
        }
    }
}
