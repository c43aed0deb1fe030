import KeyscopeCodec
public import KeyscopeCore
public import KeyscopeProtocol
public import KeyscopeRecording
import Synchronization

/// One instance of a fleet as a recorder's feed (`POST /api/recordings?instance=ID` on a fleet dashboard): the
/// dashboard's mirror of its state, then its log lines as the dashboard reads them. The file is the recording the
/// instance's own inspector would have made (secrets redacted, as everything that came through Redis).
public final class FleetRecorderFeed: RecorderFeed {
    let view: FleetView
    let instance: String
    private let start: RecorderStart
    private let reading: Mutex<Reading>

    /// The cursor, and a decoder of its own (it caches key paths and store ids) used under the same lock.
    private struct Reading {
        var cursor: FleetCursor
        let decoder = LogLineDecoder()
    }

    /// The feed of `instance`; `unknown_instance` when the fleet has none, `unavailable` before its state was read.
    public init(view: FleetView, instance: String) throws(HubError) {
        guard view.instance(instance) != nil else { throw view.unknownInstanceError(instance) }
        guard let (start, cursor) = view.recordingStart(of: instance) else {
            throw HubError(code: .unavailable, message: "the dashboard has not read \(instance)'s state yet; try again")
        }
        self.view = view
        self.instance = instance
        self.start = start
        self.reading = Mutex(Reading(cursor: cursor))
    }

    public func begin() -> RecorderStart { start }

    public var lastSeq: Int { view.mirroredSeq(of: instance) ?? 0 }

    public var nextSeq: Int { reading.withLock { $0.cursor.next } }

    public func subscriptionsUpdate() -> StoreValue? {
        reading.withLock { reading in
            view.subscriptionsUpdate(&reading.cursor).flatMap { try? StoreValue(jsonBytes: $0) }?["list"]
        }
    }

    public func next(maxEntries: Int, maxBytes: Int) -> RecorderRead? {
        reading.withLock { reading -> RecorderRead? in
            switch view.read(&reading.cursor, maxEntries: maxEntries, maxBytes: maxBytes) {
            case .entries(let lines)?:
                var events: [RecorderEvent] = []
                for line in lines {
                    guard let entry = try? line.withUnsafeBufferPointer({ try reading.decoder.decode($0) }) else {
                        return .lostThread  // the mirror applied it, so it reads; if not, the file stops before it
                    }
                    events.append(
                        RecorderEvent(event: entry.event, time: entry.time, liveSeq: Int(entry.seq), encoded: line))
                }
                return .events(events)
            case .gap(let from, let to, _)?: return .lost(from: from, to: to)
            case .snapshot?: return .lostThread
            case nil: return nil
            }
        }
    }
}

extension FleetView {
    /// The header a recording of the instance starts with (its mirrored state), and a cursor right after it.
    func recordingStart(of id: String) -> (RecorderStart, FleetCursor)? {
        state.withLock { state in
            guard let mirror = state.instances[id]?.mirror else { return nil }
            let cursor = FleetCursor(
                instance: id, next: mirror.seq + 1, epoch: mirror.epoch, subscriptionsSeen: mirror.subscriptionsVersion)
            let list = (try? StoreValue(jsonBytes: mirror.subscriptions)) ?? .array([])
            return (RecorderStart(stores: mirror.state.stores, liveSeq: mirror.seq, subscriptions: list), cursor)
        }
    }

    /// The last seq the dashboard has of the instance.
    func mirroredSeq(of id: String) -> Int? { state.withLock { $0.instances[id]?.mirror?.seq } }
}
