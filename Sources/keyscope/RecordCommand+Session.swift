import Foundation
import KeyscopeClient
import KeyscopeCodec
import KeyscopeCore
import KeyscopeRecording

/// What `keyscope record` does with each server message: the `hello` names the source, the first `snapshot`
/// becomes the header, every `changes` entry a line, `subscriptions` an extra; a `gap` ends the recording.
///
/// ```swift
/// var session = RecordSession(url: url, options: options, host: "dev-1")
/// for try await message in client.messages {
///     if let end = try session.handle(message) { print(end); break }
/// }
/// ```
struct RecordSession {
    /// Why a recording ended, as the summary says it.
    enum End: Equatable {
        /// The byte bound was reached.
        case maxBytes
        /// The server skipped entries for this client (`gap`) or started over (a second `snapshot`): the file
        /// holds every event before.
        case fellBehind(String)
    }

    let url: URL
    let options: RecordingWriter.Options
    let host: String?
    private(set) var source: RecordingHeader.Source?
    private(set) var writer: RecordingWriter?
    /// The live seq the next entry must have.
    private(set) var nextLiveSeq = 0
    private(set) var firstLiveSeq = 0

    init(url: URL, options: RecordingWriter.Options, host: String?) {
        self.url = url
        self.options = options
        self.host = host
    }

    /// Handles one message; returns why the recording ends, or `nil` to go on.
    ///
    /// - Throws: ``CommandFailure`` when the file cannot be made or written, or a message is not what the protocol
    ///   promises.
    mutating func handle(_ message: StoreValue) throws -> End? {
        switch InspectorMessage(message) {
        case .hello(let hello):
            let server = hello["server"]
            source = RecordingHeader.Source(
                name: server?["name"]?.stringValue, host: host, pid: server?["pid"]?.integerValue)
        case .snapshot(let snapshot):
            guard writer == nil else {
                return .fellBehind("the server sent a fresh snapshot: the recording cannot follow it")
            }
            try begin(snapshot)
        case .changes(let entries):
            guard let writer else { throw CommandFailure("the server sent changes before its snapshot") }
            for value in entries {
                let line = value.jsonBytes(sortedKeys: true)
                let entry = try Self.entry(line)
                guard entry.seq == Int64(nextLiveSeq) else {
                    return .fellBehind("entry #\(entry.seq) came where #\(nextLiveSeq) was due")
                }
                nextLiveSeq += 1
                // The line as sent is reused only when it has the contract's members alone (the server may add
                // others one day, which the splice knows nothing about).
                let plain = value.objectValue?.keys.allSatisfy(JanssonCodec.lineKeys.contains) ?? false
                if try Self.write(entry, plain ? line : nil, to: writer) == .full { return .maxBytes }
            }
        case .subscriptions(let message):
            if let list = message["list"] { writer?.noteSubscriptions(list) }
        case .gap(let from, let to):
            return .fellBehind(
                "the server dropped entries #\(from)…#\(to) before this client read them (it fell too far behind)")
        default:
            break
        }
        return nil
    }

    /// The first snapshot: the header.
    private mutating func begin(_ snapshot: StoreValue) throws {
        guard let seq = snapshot["seq"]?.integerValue, case .array(let list)? = snapshot["stores"] else {
            throw CommandFailure("the server's snapshot has no seq or stores")
        }
        var stores: [RecordingHeader.Store] = []
        for store in list {
            guard let id = store["id"]?.stringValue.flatMap(StoreID.init),
                let version = store["version"]?.stringValue.flatMap(SemanticVersion.init(parsing:)),
                let root = store["root"], root.objectValue != nil
            else { throw CommandFailure("the server's snapshot has a store without id, version or object root") }
            stores.append(RecordingHeader.Store(id: id, version: version, root: root))
        }
        do {
            writer = try RecordingWriter(
                url: url, createdAt: .now, source: source, stores: stores, liveSeq: Int(seq),
                subscriptions: snapshot["subscriptions"], options: options)
        } catch {
            throw CommandFailure(error.description)
        }
        firstLiveSeq = Int(seq)
        nextLiveSeq = Int(seq) + 1
    }

    /// A `changes` entry's line read as a log event (docs/recording.md), through the same codec as a file's lines.
    private static func entry(_ line: [UInt8]) throws -> LogEntry {
        do {
            return try JanssonCodec.decodeLogEntry(line)
        } catch {
            throw CommandFailure("the server sent an entry that is not a log event (\(error))")
        }
    }

    /// Writes one entry; `line` is the entry as the server sent it (sorted keys), which the writer renumbers
    /// rather than encoding the event again when muting leaves it as it is.
    private static func write(_ entry: LogEntry, _ line: [UInt8]?, to writer: RecordingWriter) throws
        -> RecordingWriter.Outcome
    {
        do {
            return try writer.append(entry.event, time: entry.time, liveSeq: Int(entry.seq), encoded: line)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
