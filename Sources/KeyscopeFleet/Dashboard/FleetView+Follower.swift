import Foundation
import KeyscopeCodec
import KeyscopeRedis
import Logging
import Synchronization

extension FleetView {
    /// The follower thread: reads the list of instances every ``Options/directoryInterval``, reads the snapshot of
    /// each instance it does not mirror yet (or that restarted, or whose log it lost), and between those follows
    /// every mirrored instance's log with one `XREAD BLOCK`.
    func runFollower() {
        let client = RedisClient(
            url: options.redis, connectTimeout: options.connectTimeout,
            commandTimeout: options.commandTimeout + options.blockTime)
        var backoff = RedisBackoff()
        var nextDirectory = ContinuousClock.now
        var reachable: Bool?
        while !isStopping {
            do throws(RedisError) {
                if ContinuousClock.now >= nextDirectory {
                    try refreshDirectory(client)
                    try loadMirrors(client)
                    nextDirectory = ContinuousClock.now + options.directoryInterval
                }
                try followLogs(client)
                backoff.reset()
                if reachable != true {
                    reachable = true
                    logger.info(
                        "following the fleet", metadata: ["fleet": "\(options.fleet)", "redis": "\(options.redis)"])
                }
            } catch {
                if reachable != false {
                    reachable = false
                    logger.warning(
                        "fleet unreachable; showing what was last read until Redis returns",
                        metadata: ["fleet": "\(options.fleet)", "redis": "\(options.redis)", "error": "\(error)"])
                }
                Thread.sleep(forTimeInterval: backoff.nextDelay().seconds)
            }
        }
        client.disconnect()
    }

    // MARK: Presence

    /// Reads every instance's presence; forgets those whose data expired.
    private func refreshDirectory(_ client: RedisClient) throws(RedisError) {
        let nowMillis = Int64(Date().timeIntervalSince1970 * 1000)
        let retention = Int64(FleetKeys.retention.components.seconds) * 1000
        try client.call(["ZREMRANGEBYSCORE", keys.instances, "-inf", "(\(nowMillis - retention)"])
        let ids = (try client.call(["ZRANGE", keys.instances, "0", "-1"]).array ?? []).compactMap(\.string)
        var found: [String: InstancePresence] = [:]
        for id in ids {
            let reply = try client.call(["HGETALL", keys.presence(id)])
            var pairs: [String: String] = [:]
            let items = reply.array ?? []
            var index = 0
            while index + 1 < items.count {
                if let key = items[index].string, let value = items[index + 1].string { pairs[key] = value }
                index += 2
            }
            if let presence = InstancePresence(fields: pairs), presence.id == id {
                found[id] = presence
            } else if pairs.isEmpty {
                try client.call(["ZREM", keys.instances, id])  // its data expired
            }
        }
        let changed = state.withLock { state -> Bool in
            let now = LogTime.now
            let clock = ContinuousClock.now
            var changed = Set(state.instances.keys) != Set(found.keys)
            if changed { state.membersVersion += 1 }
            state.instances = state.instances.filter { found[$0.key] != nil }
            for (id, presence) in found {
                if state.instances[id] == nil { state.instances[id] = Entry(presence: presence) }
                // In place: a copy of the entry would share its mirror's arrays, and the next append to them would
                // copy them whole.
                if state.instances.update(id, { Self.note(presence, in: &$0, now: now, clock: clock) }) == true {
                    changed = true
                }
            }
            if changed { state.listVersion += 1 }
            return changed
        }
        if changed { notify() }
    }

    /// Takes an instance's presence as just read: its rate, whether its mirror stays behind; `true` when what the
    /// list shows of it changed (live or gone, run, read-only).
    private static func note(
        _ presence: InstancePresence, in entry: inout Entry, now: LogTime, clock: ContinuousClock.Instant
    ) -> Bool {
        let changed =
            entry.presence.isLive(at: now) != presence.isLive(at: now)
            || entry.presence.epoch != presence.epoch || entry.presence.readOnly != presence.readOnly
        if let sample = entry.rateSample, presence.epoch == entry.presence.epoch {
            let seconds = (clock - sample.at).seconds
            if seconds > 0 {
                let rate = Double(max(0, presence.seq - sample.seq)) / seconds
                entry.rate = entry.rate * 0.5 + rate * 0.5
            }
        }
        entry.rateSample = (presence.seq, clock)
        if let mirror = entry.mirror, mirror.epoch == presence.epoch, presence.seq > mirror.seq {
            if let behind = entry.behindSince, behind.seq == mirror.seq {
                if clock - behind.at >= stallLimit { entry.checkSnapshot = true }
            } else {
                entry.behindSince = (mirror.seq, clock)
            }
        } else {
            entry.behindSince = nil
        }
        entry.presence = presence
        return changed
    }

    // MARK: Snapshots

    /// Reads the snapshot of every instance not mirrored yet, restarted, or waiting for a newer snapshot.
    private func loadMirrors(_ client: RedisClient) throws(RedisError) {
        let wanted = state.withLock { state in
            state.instances.values.filter { entry in
                entry.mirror == nil || entry.mirror?.epoch != entry.presence.epoch || entry.awaitingSnapshot != nil
                    || entry.checkSnapshot
            }.map { ($0.presence.id, $0.presence.epoch, $0.awaitingSnapshot, $0.presence.isLive(at: .now)) }
        }
        var loaded = false
        for (id, epoch, needed, live) in wanted {
            let reply = try client.call(["GET", keys.snapshot(id)])
            let outcome = state.withLock { state -> SnapshotOutcome in
                guard case .bulk(let bytes) = reply else { return .unusable }
                var created = false
                let outcome = state.instances.update(id) { entry -> SnapshotOutcome in
                    Self.load(bytes, into: &entry, epoch: epoch, needed: needed, live: live, created: &created)
                }
                if created { state.membersVersion += 1 }
                return outcome ?? .unusable
            }
            switch outcome {
            case .loaded: loaded = true
            case .tooOld: requests.askForSnapshot(of: id)
            case .unusable: break
            }
        }
        if loaded { notify() }
    }

    /// Reads a published snapshot into an instance's entry: a first (or new run's) mirror, a newer state for a mirror
    /// that waits for one, or one checked because the mirror stayed behind.
    private static func load(
        _ bytes: [UInt8], into entry: inout Entry, epoch: String, needed: Int?, live: Bool, created: inout Bool
    ) -> SnapshotOutcome {
        if entry.checkSnapshot, needed == nil, entry.mirror?.epoch == epoch {
            entry.checkSnapshot = false
            entry.behindSince = nil
            let seq = entry.mirror?.seq ?? 0
            guard entry.mirror?.reload(snapshot: bytes, minimumSeq: seq + 1) == true else { return .unusable }
            entry.position = position(before: entry.mirror?.seq ?? seq)
            return .loaded
        }
        if let needed, entry.mirror?.epoch == epoch {
            if entry.mirror?.reload(snapshot: bytes, minimumSeq: needed) == true, let seq = entry.mirror?.seq {
                entry.awaitingSnapshot = nil
                entry.position = position(before: seq)
                return .loaded
            }
            // Not new enough yet: ask the live instance for a fresh one, at most once a second.
            let now = ContinuousClock.now
            guard live, entry.snapshotAskedAt.map({ now - $0 > .seconds(1) }) ?? true else { return .unusable }
            entry.snapshotAskedAt = now
            return .tooOld
        }
        guard let mirror = InstanceMirror(epoch: epoch, snapshot: bytes) else { return .unusable }
        entry.mirror = mirror
        created = true
        entry.awaitingSnapshot = nil
        entry.position = position(before: mirror.seq)
        return .loaded
    }

    private enum SnapshotOutcome { case loaded, tooOld, unusable }

    /// How long a mirror may stay behind the instance's published seq without reading anything before its
    /// snapshot is read again.
    static let stallLimit = Duration.seconds(1)

    /// A stream position before every batch that may hold entry `seq + 1` (a batch holds at most
    /// ``FleetPublisher/batchEntries`` entries and its id starts with its first seq).
    static func position(before seq: Int) -> String { "\(max(0, seq - FleetPublisher.batchEntries))-0" }

    // MARK: Logs

    /// One `XREAD BLOCK` over the logs of every instance whose mirror follows its log.
    private func followLogs(_ client: RedisClient) throws(RedisError) {
        let followed = state.withLock { state in
            state.instances.values.filter { $0.mirror != nil && $0.awaitingSnapshot == nil }
                .map { ($0.presence.id, $0.position) }.sorted { $0.0 < $1.0 }
        }
        guard !followed.isEmpty else {
            Thread.sleep(forTimeInterval: options.blockTime.seconds)
            return
        }
        let reply = try client.call(
            ["XREAD", "COUNT", "64", "BLOCK", String(options.blockTime.milliseconds), "STREAMS"]
                + followed.map { keys.log($0.0) } + followed.map(\.1))
        guard let streams = reply.array else { return }
        var byKey: [String: String] = [:]
        for (id, _) in followed { byKey[keys.log(id)] = id }
        var lost = false
        for stream in streams {
            guard let parts = stream.array, parts.count == 2, let key = parts[0].string, let id = byKey[key] else {
                continue
            }
            lost = apply(parts[1].array ?? [], to: id) || lost
        }
        notify()
        if lost { try loadMirrors(client) }
    }

    /// Applies stream entries to the instance's mirror; `true` when the mirror lost the thread of the log and waits
    /// for a snapshot.
    private func apply(_ entries: [RedisReply], to id: String) -> Bool {
        state.withLock { state -> Bool in
            state.instances.update(id) { entry in apply(entries, to: &entry, id: id) } ?? false
        }
    }

    /// ``apply(_:to:)`` on the entry in place.
    private func apply(_ entries: [RedisReply], to entry: inout Entry, id: String) -> Bool {
        guard entry.mirror != nil else { return false }
        for item in entries {
            guard let pair = item.array, pair.count == 2, let streamID = pair[0].string else { continue }
            entry.position = streamID
            let fields = Self.fields(pair[1])
            if case .bulk(let list)? = fields["s"] { entry.mirror?.setSubscriptions(list) }
            guard let first = fields["f"]?.integer, case .bulk(let lines)? = fields["d"] else { continue }
            switch entry.mirror?.apply(lines: lines, firstSeq: Int(first)) {
            case .discontinuous(let firstSeq)?:
                entry.awaitingSnapshot = firstSeq - 1
                return true
            case .broken(let reason)?:
                logger.warning(
                    "an instance's log did not apply to its mirror; reading its snapshot again",
                    metadata: ["instance": "\(id)", "reason": "\(reason)"])
                entry.awaitingSnapshot = (entry.mirror?.seq ?? 0) + 1
                return true
            case .applied?, nil:
                continue
            }
        }
        return false
    }

    private static func fields(_ reply: RedisReply) -> [String: RedisReply] {
        var fields: [String: RedisReply] = [:]
        let items = reply.array ?? []
        var index = 0
        while index + 1 < items.count {
            if let name = items[index].string { fields[name] = items[index + 1] }
            index += 2
        }
        return fields
    }
}
