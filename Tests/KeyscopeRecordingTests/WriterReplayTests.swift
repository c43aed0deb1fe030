import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeRecording
import Testing

/// A recording read back and replayed in memory, checking docs/recording.md on the way: a complete header, every
/// later line an event, `seq` 1, 2, 3…, every change applying to the state (its `old` values included), store
/// events that fit. Until the package's own reader is merged, this is what the tests (and the fixtures' check) hold
/// recordings to.
struct WrittenRecording {
    var header: RecordingHeader
    /// The header's extras and each event line's JSON object, for the members a reader ignores.
    var headerObject: [String: StoreValue]
    var lines: [[String: StoreValue]] = []
    var entries: [LogEntry] = []
    /// Every store's root after the last event.
    var stores: [StoreID: StoreValue]
    /// Bytes after the last `\n` (a torn tail).
    var tornBytes = 0

    init(contentsOf url: URL) throws {
        try self.init(bytes: Array(try Data(contentsOf: url)))
    }

    init(bytes: [UInt8]) throws {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let tail = lines.removeLast()
        guard let first = lines.first else { throw WrittenRecordingError("line 1: no complete header") }
        header = try JanssonCodec.decodeRecordingHeader(first)
        headerObject = try #require(try StoreValue(jsonBytes: Array(first)).objectValue)
        stores = Dictionary(uniqueKeysWithValues: header.stores.map { ($0.id, $0.root) })
        tornBytes = tail.count
        for (index, line) in lines.dropFirst().enumerated() {
            let number = index + 2
            guard !line.isEmpty else { throw WrittenRecordingError("line \(number): blank") }
            let entry = try JanssonCodec.decodeLogEntry(line)
            guard entry.seq == Int64(entries.count + 1) else {
                throw WrittenRecordingError("line \(number): seq \(entry.seq) where \(entries.count + 1) was due")
            }
            try apply(entry.event, line: number)
            entries.append(entry)
            self.lines.append(try #require(try StoreValue(jsonBytes: Array(line)).objectValue))
        }
    }

    private mutating func apply(_ event: LogEvent, line: Int) throws {
        switch event {
        case .change(let change):
            guard var root = stores[change.storeID] else {
                throw WrittenRecordingError("line \(line): a change of \(change.storeID), which is not in the state")
            }
            do {
                try root.apply(change: change)
            } catch {
                throw WrittenRecordingError("line \(line): \(error)")
            }
            stores[change.storeID] = root
        case .registered(let id, _, let root):
            guard stores[id] == nil else { throw WrittenRecordingError("line \(line): \(id) registered twice") }
            stores[id] = root
        case .reset(let id, _):
            guard stores[id] != nil else { throw WrittenRecordingError("line \(line): reset of unknown \(id)") }
            stores[id] = .emptyObject
        case .removed(let id):
            guard stores.removeValue(forKey: id) != nil else {
                throw WrittenRecordingError("line \(line): removed unknown \(id)")
            }
        }
    }

    /// Each event line's `liveSeq` extra.
    var liveSeqs: [Int64?] { lines.map { $0["liveSeq"]?.integerValue } }
}

struct WrittenRecordingError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A fresh directory under the system's temporary directory, removed by `cleanUp()`.
struct RecorderTempFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "keyscope-recording-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

/// A store id in the `scenario:<name>/memory` form.
func scenarioStoreID(_ name: String) -> StoreID { StoreID(scope: .scenario(id: name), storage: .memory) }

@Suite struct WriterReplayTests {
    @Test func theReplayRefusesASkippedSeqAndAPatchThatDoesNotApply() throws {
        let header =
            #"{"createdAt":"2026-11-21T10:00:00.000000Z","format":"keyscope-log","version":1,"#
            + #""stores":[{"id":"app/memory","version":"1.0.0","root":{"a":1}}]}"#
        let good =
            #"{"seq":1,"time":"2026-11-21T10:00:00.100000Z","store":"app/memory","txn":null,"#
            + #""patches":[{"op":"set","path":"a","old":1,"new":2}]}"#
        let replayed = try WrittenRecording(bytes: Array((header + "\n" + good + "\n").utf8))
        #expect(replayed.stores[StoreID("app/memory")!] == ["a": 2])

        let skipped = good.replacingOccurrences(of: #""seq":1"#, with: #""seq":2"#)
        #expect(throws: WrittenRecordingError.self) {
            try WrittenRecording(bytes: Array((header + "\n" + skipped + "\n").utf8))
        }
        let stale = good.replacingOccurrences(of: #""old":1"#, with: #""old":5"#)
        #expect(throws: WrittenRecordingError.self) {
            try WrittenRecording(bytes: Array((header + "\n" + stale + "\n").utf8))
        }
    }

    @Test func aTornTailIsCountedNotReplayed() throws {
        let header = #"{"createdAt":"2026-11-21T10:00:00.000000Z","format":"keyscope-log","version":1,"stores":[]}"#
        let replayed = try WrittenRecording(bytes: Array((header + "\n{\"seq\":1").utf8))
        #expect(replayed.entries.isEmpty)
        #expect(replayed.tornBytes == 8)
    }
}
