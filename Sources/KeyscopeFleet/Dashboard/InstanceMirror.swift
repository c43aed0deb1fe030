import KeyscopeCodec
import KeyscopeCore
import KeyscopeRecording

/// A fleet dashboard's copy of one instance: its state at ``seq`` (from its published snapshot, moved forward by
/// its published log), its subscription list, and the latest entries of its log for the dashboard's clients.
///
/// Touched by the follower thread (which applies) and the server's thread (which reads), always under
/// ``FleetView``'s lock.
struct InstanceMirror {
    /// The instance's run it follows (``InstancePresence/epoch``); a new run starts a new mirror.
    let epoch: String
    private(set) var state: ReplayState
    /// The last seq the state includes.
    private(set) var seq: Int
    /// Extra members of each store in the instance's snapshot (its `backend` status), kept as the instance sent them.
    private var extras: [StoreID: [String: StoreValue]] = [:]
    /// The subscription list as JSON (an array), as the instance last published it, and a counter of its changes.
    private(set) var subscriptions: [UInt8] = Array("[]".utf8)
    private(set) var subscriptionsVersion = 0
    /// Entries after ``ringBase``, oldest first: their seqs are `ringBase + 1 … seq`.
    private var ring: [[UInt8]] = []
    private var ringStart = 0
    private(set) var ringBase: Int
    /// Bytes held by the ring's lines.
    private var ringBytes = 0
    /// Times the state was replaced by a snapshot (a session that saw another generation resyncs).
    private(set) var generation = 0
    private let decoder = LogLineDecoder()

    /// The most entries and bytes kept for clients of each instance (ten seconds of a busy one); one further behind
    /// gets a gap and a snapshot. A dashboard of 20 instances holds at most 20 times this.
    static let ringEntries = 10_000
    static let ringMaxBytes = 8 << 20

    /// A mirror from a `snapshot` message the instance published; `nil` when it is not one.
    init?(epoch: String, snapshot bytes: [UInt8]) {
        guard let parsed = Self.parseSnapshot(bytes) else { return nil }
        self.epoch = epoch
        self.state = ReplayState(header: RecordingHeader(createdAt: .now, stores: parsed.stores))
        self.seq = parsed.seq
        self.ringBase = parsed.seq
        self.extras = parsed.extras
        self.subscriptions = parsed.subscriptions
    }

    /// Replaces the state with a snapshot at `minimumSeq` or later (the log could not be followed): entries before
    /// it are dropped, so clients behind it get a gap. `false` (and nothing changed) when the snapshot is older.
    mutating func reload(snapshot bytes: [UInt8], minimumSeq: Int) -> Bool {
        guard let parsed = Self.parseSnapshot(bytes), parsed.seq >= max(minimumSeq, seq) else { return false }
        state = ReplayState(header: RecordingHeader(createdAt: .now, stores: parsed.stores))
        seq = parsed.seq
        extras = parsed.extras
        setSubscriptions(parsed.subscriptions)
        ring.removeAll()
        ringStart = 0
        ringBytes = 0
        ringBase = parsed.seq
        generation += 1
        return true
    }

    /// What applying published lines did.
    enum Applied: Equatable {
        /// Every line was applied (or was already in the state).
        case applied
        /// The lines start after a seq the mirror has not seen: it needs a snapshot at `firstSeq - 1` or later.
        case discontinuous(firstSeq: Int)
        /// A line did not apply to the state (it is not what the instance had): it needs a snapshot.
        case broken(String)
    }

    /// Applies the lines of one published batch, whose first line has seq `firstSeq`.
    mutating func apply(lines data: [UInt8], firstSeq: Int) -> Applied {
        var lineSeq = firstSeq
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            defer { lineSeq += 1 }
            if lineSeq <= seq { continue }
            guard lineSeq == seq + 1 else { return .discontinuous(firstSeq: lineSeq) }
            let bytes = Array(line)
            do {
                let entry = try bytes.withUnsafeBufferPointer { buffer in try decoder.decode(buffer) }
                try state.apply(entry)
            } catch {
                return .broken("entry \(lineSeq): \(error)")
            }
            seq = lineSeq
            remember(bytes)
        }
        return .applied
    }

    mutating func setSubscriptions(_ list: [UInt8]) {
        guard list != subscriptions else { return }
        subscriptions = list
        subscriptionsVersion += 1
    }

    private mutating func remember(_ line: [UInt8]) {
        ring.append(line)
        ringBytes += line.count
        while ring.count - ringStart > Self.ringEntries || ringBytes > Self.ringMaxBytes {
            ringBytes -= ring[ringStart].count
            ring[ringStart] = []
            ringStart += 1
            ringBase += 1
        }
        // Compacts now and then, so the array does not hold every line ever seen.
        if ringStart > 4096, ringStart * 2 > ring.count {
            ring.removeFirst(ringStart)
            ringStart = 0
        }
    }

    /// The entries from `next` on, at most `maxEntries` and about `maxBytes`; `nil` when `next` is no longer held
    /// (or from another generation): the client needs a gap and a snapshot.
    func entries(from next: Int, maxEntries: Int, maxBytes: Int) -> [[UInt8]]? {
        guard next > ringBase else { return nil }
        var lines: [[UInt8]] = []
        var bytes = 0
        var index = ringStart + (next - ringBase - 1)
        while index < ring.count, lines.count < maxEntries, lines.isEmpty || bytes + ring[index].count <= maxBytes {
            lines.append(ring[index])
            bytes += ring[index].count + 1
            index += 1
        }
        return lines
    }

    /// The docs/protocol.md `snapshot` message of the state, stores ordered by id, with `"instance": ID` added.
    func snapshotMessage(instance: String) -> [UInt8] {
        let stores = state.stores.sorted { $0.id.description < $1.id.description }.map { store -> StoreValue in
            var object: [String: StoreValue] = [
                "id": .string(store.id.description), "scope": .string(store.id.scope.description),
                "storage": .string(store.id.storage.description), "version": .string(store.version.description),
                "root": store.root,
            ]
            for (key, value) in extras[store.id] ?? [:] where object[key] == nil { object[key] = value }
            return .object(object)
        }
        var bytes = Array(#"{"instance":"#.utf8)
        bytes += StoreValue.string(instance).jsonBytes()
        bytes += Array(#","seq":\#(seq),"stores":"#.utf8)
        bytes += StoreValue.array(stores).jsonBytes(sortedKeys: true)
        bytes += Array(#","subscriptions":"#.utf8)
        bytes += subscriptions
        bytes += Array(#","type":"snapshot"}"#.utf8)
        return bytes
    }

    // MARK: Reading a published snapshot

    private struct ParsedSnapshot {
        var seq: Int
        var stores: [RecordingHeader.Store]
        var extras: [StoreID: [String: StoreValue]]
        var subscriptions: [UInt8]
    }

    private static func parseSnapshot(_ bytes: [UInt8]) -> ParsedSnapshot? {
        guard let object = (try? StoreValue(jsonBytes: bytes))?.objectValue,
            case .integer(let seq)? = object["seq"], case .array(let list)? = object["stores"]
        else { return nil }
        var stores: [RecordingHeader.Store] = []
        var extras: [StoreID: [String: StoreValue]] = [:]
        for item in list {
            guard var members = item.objectValue, case .string(let idText)? = members["id"],
                let id = StoreID(idText), case .string(let versionText)? = members["version"],
                let version = SemanticVersion(versionText), let root = members["root"], root.objectValue != nil
            else { return nil }
            stores.append(RecordingHeader.Store(id: id, version: version, root: root))
            for key in ["id", "scope", "storage", "version", "root"] { members[key] = nil }
            if !members.isEmpty { extras[id] = members }
        }
        let subscriptions = object["subscriptions"].map { $0.jsonBytes(sortedKeys: true) } ?? Array("[]".utf8)
        return ParsedSnapshot(seq: Int(seq), stores: stores, extras: extras, subscriptions: subscriptions)
    }
}
