public import Foundation
public import KeyscopeCodec
public import KeyscopeCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a recording (docs/recording.md, docs/recording.md "The file"): the header when made, then one line per event,
/// each with a single `write(2)` as soon as it is encoded, so that a crash loses at most the last partial line.
///
/// ```swift
/// let writer = try RecordingWriter(
///     url: URL(fileURLWithPath: "bug-1234.kslog"), source: .thisProcess, stores: stores, liveSeq: snapshot.seq,
///     options: RecordingWriter.Options(maxBytes: 10 << 20, mute: try MuteRules(patterns: ["user.card"])))
/// switch try writer.append(.change(change), time: entry.time, liveSeq: entry.seq) {
/// case .written, .muted: break
/// case .full: writer.close()        // ended: max-bytes
/// }
/// ```
/// - `seq` is renumbered 1, 2, 3… over the lines written; the live service's seq goes in each line's `liveSeq`
///   (and the snapshot's in the header's).
/// - Muting (``Options/mute``) masks the header's roots and every event; muted stores are left out, and an event
///   muting leaves nothing of writes no line.
/// - ``noteSubscriptions(_:)`` hands over the service's subscription list; when the set of subscriptions changed
///   (delivery counts aside), the next line written carries the whole list as `subscriptions`.
/// - ``Options/maxBytes`` bounds the file, header included: the header must fit (or `init` fails at once), and
///   the first event whose line would not fit ends the writing (``Outcome/full``).
///
/// Thread-safe: calls are serialised, so lines never interleave.
public final class RecordingWriter: Sendable {
    public let url: URL
    public let options: Options

    private struct State {
        /// The open file, or -1 once closed.
        var descriptor: Int32
        var counts: Counts
        var full = false
        /// The subscription list to write with the next line, when the set changed since the last one written.
        var pendingSubscriptions: StoreValue?
        /// The last list written (or in the header), delivery counts left out, to tell whether the set changed.
        var subscriptionsKey: StoreValue?
    }

    private let state: Mutex<State>

    /// Creates the file (see ``Options/overwrite``) and writes its header, with ``Options/mute`` applied to
    /// `stores` (muted stores are left out) and to the subscription list.
    ///
    /// - Parameters:
    ///   - createdAt: the header's `createdAt`: when the state in `stores` was read.
    ///   - source: where the recording comes from (`name`, `host`, `pid`), when known.
    ///   - stores: every store's state when the recording begins, unmasked.
    ///   - liveSeq: the live service's seq of that state (the header's `liveSeq` extra), when there is one.
    ///   - subscriptions: the service's subscription list then (docs/protocol.md shape), when known.
    /// - Throws: ``RecordingError``: ``RecordingError/Code/io`` when the file exists (and ``Options/overwrite`` is
    ///   off) or cannot be created or written, ``RecordingError/Code/tooLarge`` when the header alone exceeds
    ///   ``Options/maxBytes`` (no file is made then), ``RecordingError/Code/badHeader`` when it cannot be encoded.
    public init(
        url: URL, createdAt: LogTime = .now, source: RecordingHeader.Source? = nil, stores: [RecordingHeader.Store],
        liveSeq: Int? = nil, subscriptions: StoreValue? = nil, options: Options = Options()
    ) throws(RecordingError) {
        self.url = url
        self.options = options
        let mute = options.mute
        var extras: [String: StoreValue] = [
            "recorder": options.recorder,
            "muted": .array(mute.patterns.map { .string($0.description) }),
            "mutedStores": .array(mute.stores.map { .string($0.description) }),
        ]
        if let liveSeq { extras["liveSeq"] = .integer(Int64(liveSeq)) }
        let list = subscriptions.map { Self.unmuted($0, mute) }
        if let list { extras["subscriptions"] = list }
        let header = RecordingHeader(
            createdAt: createdAt, source: source,
            stores: stores.filter { !mute.mutes(store: $0.id) }.map {
                RecordingHeader.Store(id: $0.id, version: $0.version, root: mute.mask(root: $0.root))
            },
            extras: extras)
        var line: [UInt8]
        do {
            line = try JanssonCodec.encode(header)
        } catch {
            throw RecordingError(.badHeader, line: 1, "the header cannot be written: \(error)")
        }
        line.append(UInt8(ascii: "\n"))
        if let maxBytes = options.maxBytes, line.count > maxBytes {
            throw RecordingError(
                .tooLarge, line: 1,
                "the header alone takes \(line.count) bytes, more than the bound of \(maxBytes) bytes; allow more "
                    + "bytes or mute large stores")
        }
        let descriptor = try RecordingFile.open(url, overwrite: options.overwrite, permissions: options.permissions)
        do throws(RecordingError) {
            try RecordingFile.write(descriptor, line, to: url)
        } catch {
            RecordingFile.close(descriptor)
            throw error
        }
        state = Mutex(
            State(
                descriptor: descriptor, counts: Counts(events: 0, bytes: line.count, lastLiveSeq: liveSeq),
                subscriptionsKey: list.map(Self.setKey)))
    }

    deinit { close() }

    /// Lines and bytes written so far.
    public var counts: Counts { state.withLock { $0.counts } }

    /// Whether the writer stopped taking events because of ``Options/maxBytes``.
    public var isFull: Bool { state.withLock { $0.full } }

    /// Masks `event`, numbers it with the next `seq` and writes its line (with `liveSeq` and, when the subscription
    /// set changed, `subscriptions`) in one `write(2)`.
    ///
    /// - Returns: whether it was written, muted away, or refused because the file is full (then, and after
    ///   ``close()``, every later call returns ``Outcome/full`` without writing).
    /// - Throws: ``RecordingError/Code/io`` when writing fails (the writer is closed then: the file holds every
    ///   complete line before), ``RecordingError/Code/badLine`` when the event cannot be encoded (nothing written).
    ///
    /// - Parameter encoded: the event's line as the hub encoded it (``KeyscopeInspector/HubLogEntry/lineBytes``,
    ///   whatever its `seq`), when there is one: used, renumbered, when muting leaves the event as it is, which
    ///   spares encoding it again.
    @discardableResult
    public func append(_ event: LogEvent, time: LogTime, liveSeq: Int? = nil, encoded: [UInt8]? = nil)
        throws(RecordingError) -> Outcome
    {
        guard let (masked, unchanged) = options.mute.maskReporting(event) else {
            state.withLock { if let liveSeq { $0.counts.lastLiveSeq = liveSeq } }
            return .muted
        }
        return try state.withLock { (state: inout State) throws(RecordingError) -> Outcome in
            guard state.descriptor >= 0, !state.full else { return .full }
            let seq = state.counts.events + 1
            var line: [UInt8]
            if unchanged, let encoded,
                let spliced = RecordingSplice.renumber(
                    encoded, seq: seq, liveSeq: liveSeq,
                    subscriptions: state.pendingSubscriptions.map { $0.jsonBytes(sortedKeys: true) })
            {
                line = spliced
            } else {
                var extras: [String: StoreValue] = [:]
                if let liveSeq { extras["liveSeq"] = .integer(Int64(liveSeq)) }
                if let list = state.pendingSubscriptions { extras["subscriptions"] = list }
                do {
                    line = try JanssonCodec.encode(
                        LogEntry(seq: Int64(seq), time: time, event: masked), extras: extras)
                } catch {
                    let which = liveSeq.map { "the event of live seq \($0)" } ?? "event \(seq)"
                    throw RecordingError(.badLine, line: seq + 1, "\(which) cannot be written: \(error)")
                }
            }
            line.append(UInt8(ascii: "\n"))
            if let maxBytes = options.maxBytes, state.counts.bytes + line.count > maxBytes {
                state.full = true
                return .full
            }
            do throws(RecordingError) {
                try RecordingFile.write(state.descriptor, line, to: url)
            } catch {
                RecordingFile.close(state.descriptor)
                state.descriptor = -1
                throw error
            }
            state.counts.events = seq
            state.counts.bytes += line.count
            if let liveSeq { state.counts.lastLiveSeq = liveSeq }
            state.pendingSubscriptions = nil
            return .written
        }
    }

    /// Hands over the service's current subscription list (docs/protocol.md `subscriptions` shape). When the set of
    /// subscriptions differs from the last one written (delivery counts are not compared: they move all the time),
    /// the next line written carries this list. Entries of muted stores are left out.
    public func noteSubscriptions(_ list: StoreValue) {
        let list = Self.unmuted(list, options.mute)
        let key = Self.setKey(list)
        state.withLock { state in
            if key != state.subscriptionsKey {
                state.subscriptionsKey = key
                state.pendingSubscriptions = list
            } else if state.pendingSubscriptions != nil {
                state.pendingSubscriptions = list
            }
        }
    }

    /// Flushes the file to disk (`fsync`) and closes it. Idempotent; later appends return ``Outcome/full``.
    public func close() {
        state.withLock { state in
            guard state.descriptor >= 0 else { return }
            _ = fsync(state.descriptor)
            RecordingFile.close(state.descriptor)
            state.descriptor = -1
        }
    }

    /// The list without the entries of muted stores.
    private static func unmuted(_ list: StoreValue, _ mute: MuteRules) -> StoreValue {
        guard !mute.stores.isEmpty, case .array(let entries) = list else { return list }
        return .array(
            entries.filter { entry in
                guard let id = entry["store"]?.stringValue.flatMap(StoreID.init) else { return true }
                return !mute.mutes(store: id)
            })
    }

    /// The list with its delivery counts left out: what "the set of subscriptions changed" compares.
    private static func setKey(_ list: StoreValue) -> StoreValue {
        guard case .array(let entries) = list else { return list }
        return .array(
            entries.map { entry in
                guard case .object(var members) = entry else { return entry }
                members["deliveries"] = nil
                return .object(members)
            })
    }
}
