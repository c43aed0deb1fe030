import Foundation
public import KeyscopeCodec
public import KeyscopeCore
import Synchronization

/// What a log entry records: a change, or one of the store events of docs/recording.md.
public enum HubLogEvent: Sendable, Hashable {
    /// A write or a transaction: its patches, in order, and its transaction id.
    case change(StoreChange)
    /// The store joined (or the hub started and found it): its state and version then.
    case registered(version: SemanticVersion, root: StoreValue)
    /// A major-version bump dropped the store's data: its root is now `{}`.
    case reset(version: SemanticVersion)
    /// The store left: it is no longer part of the state.
    case removed
}

/// One entry of the hub's log: an event with its global `seq` and its time, and its docs/recording.md line.
///
/// ```swift
/// if case .entries(let entries) = cursor.next() {
///     for entry in entries { print(entry.seq, entry.storeID, String(decoding: entry.lineBytes, as: UTF8.self)) }
/// }
/// ```
/// An entry never changes while anyone but the log holds it, and is shared by every client; the JSON line is made
/// once, by the first reader (up to the end of its patches by its writer, for the writes the hub applies for clients:
/// see ``Prepared``).
///
/// **Reuse.** An entry that the log evicted while nothing else held it is refilled by a later append (see
/// `HubLog.keepSpares`): the writer then allocates no entry and frees the old change's patches itself, so neither
/// waits on the other thread's allocator lock. It is refilled only when the log held its one reference, checked after
/// it left the log (so nobody can take another), and no holder ever sees an entry change; the fields are written under
/// the hub's lock before the entry is published, and read after it. Hence `@unchecked Sendable`.
public final class HubLogEntry: @unchecked Sendable {
    /// The global sequence number: 1, 2, … across all stores, without gaps.
    @exclusivity(unchecked) public private(set) var seq: Int
    /// When the hub heard of the event.
    @exclusivity(unchecked) public private(set) var time: LogTime
    /// The store the event is about.
    @exclusivity(unchecked) public private(set) var storeID: StoreID
    @exclusivity(unchecked) public private(set) var event: HubLogEvent
    /// The encoded line, made on first use (from its ``Prepared`` head when the writer made one). Readers take this
    /// lock, and a store's observer only while the entry is not published yet (``adopt(_:)``).
    private let encoded = Mutex<Encoded>(.none)

    private enum Encoded {
        case none
        /// The line up to its patches, made by the writer (``Prepared``).
        case head([UInt8])
        case line([UInt8])
    }
    /// ``estimatedBytes`` as the hub's settling found it (-1 until then): the log takes it off its byte count when
    /// it evicts the entry, and encoding the line does not walk the values again to size its buffer.
    private let settledEstimate = Atomic<Int>(-1)

    init(seq: Int, time: LogTime, storeID: StoreID, event: HubLogEvent) {
        self.seq = seq
        self.time = time
        self.storeID = storeID
        self.event = event
    }

    /// Refills a spare entry (one the log evicted and nobody else holds) for a new event; returns the event it
    /// held, for the caller to release outside its lock. Its line was dropped when it became a spare.
    func refill(seq: Int, time: LogTime, storeID: StoreID, event: HubLogEvent) -> HubLogEvent {
        self.seq = seq
        self.time = time
        self.storeID = storeID
        settledEstimate.store(-1, ordering: .relaxed)
        // Swapped rather than copied out and overwritten: the old event moves out without a retain and a release.
        var replaced = event
        swap(&replaced, &self.event)
        return replaced
    }

    /// Frees the line of an entry that the log evicted, on the settling thread (often the reader that made it)
    /// rather than the writer that will refill it.
    func dropLine() { encoded.withLock { $0 = .none } }

    /// The estimated size of ``lineBytes``, known without encoding (see `JSONSizeEstimate`): what the log's byte
    /// bound counts. One walk over the patches' values, made when the hub settles the entry (not by the writer).
    public var estimatedBytes: Int {
        let settled = settledEstimate.load(ordering: .relaxed)
        return settled >= 0 ? settled : Self.estimate(event, storeIDSize: JSONSizeEstimate.string(storeID.description))
    }

    /// Keeps the estimate the hub computed when it settled the entry.
    func recordEstimate(_ bytes: Int) { settledEstimate.store(bytes, ordering: .relaxed) }

    /// The change, when the entry is one (not a store event).
    public var change: StoreChange? {
        if case .change(let change) = event { return change }
        return nil
    }

    /// The entry as one docs/recording.md line without its final newline, keys sorted: for a change
    /// `{"patches":[…],"seq":N,"store":"app/memory","time":"2026-…Z","txn":null}`, for a store event
    /// `{"event":"registered","root":{…},"seq":N,"store":…,"time":…,"version":"1.0.0"}`.
    ///
    /// Encoded at most once, by whichever reader asks first (never under a store's lock; a ``Prepared`` head is
    /// only completed), then shared: every client sends the same bytes. Once made, they stay with the entry (roughly doubling its memory, which the byte bound
    /// does not count).
    public var lineBytes: [UInt8] {
        encoded.withLock { encoded in
            let bytes: [UInt8]
            switch encoded {
            case .line(let line): return line
            case .head(let head): bytes = finishLine(after: head)
            case .none: bytes = encodeLine()
            }
            encoded = .line(bytes)
            return bytes
        }
    }

    /// What a writer makes of its change before the entry is published: its estimated size and its line up to the
    /// end of its patches (all of it but seq, store, time and txn). ``InspectorHub`` makes it for the writes it
    /// applies for clients, on their thread (the server's worker), so that no reader (the server's service thread,
    /// which encodes every line first) walks or encodes a wide value: the line of a merge of 200,000 members took it
    /// a fifth of a second. `nil` for a store event.
    struct Prepared: Sendable {
        let estimate: Int
        let head: [UInt8]

        init?(_ event: HubLogEvent, storeID: StoreID) {
            guard case .change(let change) = event else { return nil }
            let estimate = HubLogEntry.estimate(event, storeIDSize: JSONSizeEstimate.string(storeID.description))
            self.estimate = estimate
            head = JSONBuffer.withScratch(capacity: min(max(1024, estimate + 64), 64 << 10)) { bytes in
                HubLogEntry.appendHead(change.patches, origin: change.origin, to: &bytes)
                return bytes.bytes
            }
        }
    }

    /// Takes what the writer prepared; called under the hub's lock, right after the entry was appended and before
    /// any reader can see it.
    func adopt(_ prepared: Prepared) {
        settledEstimate.store(prepared.estimate, ordering: .relaxed)
        encoded.withLock { $0 = .head(prepared.head) }
    }

    /// The estimate recorded for the entry (by its writer or a settle), -1 when there is none yet.
    var recordedEstimate: Int { settledEstimate.load(ordering: .relaxed) }

    /// Whether the line, or its head, is made already (a reader then only copies it).
    var isEncoded: Bool {
        encoded.withLock { encoded in
            if case .none = encoded { return false }
            return true
        }
    }

    /// Writes the line straight into bytes, keys in sorted order (byte for byte `jsonObject.jsonBytes(sortedKeys:
    /// true)`, without building the object): changes are the bulk of the log and this is the server's hot path.
    /// The line is written on the stack when it fits (a set is about 270 bytes) and copied once into an array of
    /// its exact size.
    private func encodeLine() -> [UInt8] {
        // Only the two fields are taken out of the change: binding the whole change copied it (its store id's
        // strings too), a sixth of this function's time in retains and releases.
        let patches: [StorePatch]
        let transactionID: UUID?
        let origin: String?
        switch event {
        case .change(let change):
            patches = change.patches
            transactionID = change.transactionID
            origin = change.origin
        case .registered, .reset, .removed:
            return jsonObject.jsonBytes(sortedKeys: true)
        }
        // The estimate sizes the scratch memory, so that a transaction's line does not move to the heap on the way;
        // at most 64 KiB of it is asked of the stack, and a longer line moves to the heap once it outgrows that.
        return JSONBuffer.withScratch(capacity: min(max(1024, estimatedBytes + 64), 64 << 10)) { bytes in
            Self.appendHead(patches, origin: origin, to: &bytes)
            appendTail(transactionID, to: &bytes)
            return bytes.bytes
        }
    }

    /// The line of a change whose head the writer made (``Prepared``): the head, then seq, store, time and txn.
    private func finishLine(after head: [UInt8]) -> [UInt8] {
        guard case .change(let change) = event else { return encodeLine() }
        let tail = JSONBuffer.withScratch(capacity: 256) { tail in
            appendTail(change.transactionID, to: &tail)
            return tail.bytes
        }
        return head + tail
    }

    /// A change's line up to the end of its patches: `{"patches":[…]` (with `"origin"` first when it has one).
    private static func appendHead(_ patches: [StorePatch], origin: String?, to bytes: inout JSONBuffer) {
        if let origin {
            // docs/fleet.md: a change from another instance names it; "origin" sorts before "patches".
            bytes.append(#"{"origin":"#)
            bytes.appendJSONString(origin)
            bytes.append(#","patches":["#)
        } else {
            bytes.append(#"{"patches":["#)
        }
        for (index, patch) in patches.enumerated() {
            bytes.append(index > 0 ? #",{"# : "{")
            if let new = patch.newValue {
                bytes.append(#""new":"#)
                new.appendJSON(to: &bytes, sortedKeys: true)
                bytes.append(UInt8(ascii: ","))
            }
            if let old = patch.oldValue {
                bytes.append(#""old":"#)
                old.appendJSON(to: &bytes, sortedKeys: true)
                bytes.append(UInt8(ascii: ","))
            }
            bytes.append(Self.opAndPathKey(patch.op))
            patch.keyPath.appendJSONString(to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// The rest of a change's line after its head: `,"seq":N,"store":…,"time":…,"txn":…}`.
    private func appendTail(_ transactionID: UUID?, to bytes: inout JSONBuffer) {
        bytes.append(#","seq":"#)
        bytes.appendDecimal(seq)
        bytes.append(#","store":"#)
        bytes.appendJSONString(storeID.description)
        bytes.append(#","time":""#)
        time.appendRFC3339(to: &bytes)
        if let transaction = transactionID {
            bytes.append(#"","txn":""#)
            bytes.appendLowercased(transaction)
            bytes.append(#""}"#)
        } else {
            bytes.append(#"","txn":null}"#)
        }
    }

    /// A patch's `op` member and the key of the `path` after it, as one literal.
    private static func opAndPathKey(_ op: StorePatch.Operation) -> StaticString {
        switch op {
        case .set: #""op":"set","path":"#
        case .insert: #""op":"insert","path":"#
        case .remove: #""op":"remove","path":"#
        case .merge: #""op":"merge","path":"#
        }
    }

    /// The entry as the JSON object of its line.
    public var jsonObject: StoreValue {
        var object: [String: StoreValue] = [
            "seq": .integer(Int64(seq)), "store": .string(storeID.description), "time": .string(time.rfc3339),
        ]
        switch event {
        case .change(let change):
            object["patches"] = .array(change.patches.map(\.jsonObject))
            object["txn"] = change.transactionID.map { .string($0.uuidString.lowercased()) } ?? .null
            if let origin = change.origin { object["origin"] = .string(origin) }
        case .registered(let version, let root):
            object["event"] = "registered"
            object["version"] = .string(version.description)
            object["root"] = root
        case .reset(let version):
            object["event"] = "reset"
            object["version"] = .string(version.description)
        case .removed:
            object["event"] = "removed"
        }
        return .object(object)
    }

    /// The estimated line size of an event whose store id takes `storeIDSize` bytes quoted.
    static func estimate(_ event: HubLogEvent, storeIDSize: Int) -> Int {
        // `{"seq":N,"store":"…","time":"…Z"}` with room for a 12-digit seq.
        let common = 52 + storeIDSize
        switch event {
        case .change(let change):
            var total = common + 25 + (change.transactionID == nil ? 4 : 38) + max(0, change.patches.count - 1)
            if let origin = change.origin { total += 12 + JSONSizeEstimate.string(origin) }
            for patch in change.patches { total += JSONSizeEstimate.patch(patch) }
            return total
        case .registered(let version, let root):
            return common + 45 + version.description.utf8.count + JSONSizeEstimate.of(root)
        case .reset(let version):
            return common + 33 + version.description.utf8.count
        case .removed:
            return common + 19
        }
    }
}
