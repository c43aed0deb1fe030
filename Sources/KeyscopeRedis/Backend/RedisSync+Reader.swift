import Dispatch
import Foundation
import KeyscopeCore
import Logging
import Synchronization

extension RedisSync {
    /// The reader thread: joins the document (catch-up), then follows its stream with `XREAD BLOCK`; joins again
    /// after any reconnection, gap in the stream, or change of the document's incarnation.
    func runReader() {
        let client = RedisClient(
            url: backend.url, connectTimeout: backend.options.connectTimeout,
            commandTimeout: backend.options.blockTime + backend.options.commandTimeout)
        var backoff = RedisBackoff()
        // The last failure logged: one that repeats at every retry (a refused password) is logged once.
        var lastFailure: String?
        while !isStopped {
            do throws(RedisError) {
                if state.withLock({ $0.needsJoin }) {
                    try join(client)
                    backoff.reset()
                    lastFailure = nil
                }
                let from = state.withLock { $0.lastVersion }
                let reply = try client.call([
                    "XREAD", "COUNT", "512", "BLOCK", String(RedisConnection.milliseconds(backend.options.blockTime)),
                    "STREAMS", layout.log, "\(from)-0",
                ])
                if reply.isNull {
                    try checkIncarnation(client)
                } else {
                    follow(reply)
                }
            } catch  where error.isConnectionProblem {
                markUnreachable(error)
                pause(backoff.nextDelay(), on: readerWake)
            } catch {
                if "\(error)" != lastFailure {
                    lastFailure = "\(error)"
                    backend.logger.error(
                        "reading from Redis failed; trying again",
                        metadata: ["namespace": "\(namespace)", "error": "\(error)"])
                }
                // Redis answered (refusing the login, say): opening the store need not wait for it any longer.
                noteFirstAttempt()
                state.withLock { $0.needsJoin = true }
                pause(backoff.nextDelay(), on: readerWake)
            }
        }
    }

    /// An idle stream: checks that the document is still the one joined (a Redis restarted empty, or from an older
    /// save, has another epoch or a smaller version) and joins again when not.
    private func checkIncarnation(_ client: RedisClient) throws(RedisError) {
        let reply = try client.call(["HMGET", layout.meta, "epoch", "version"])
        let fields = reply.array ?? []
        let epoch = fields.first?.string
        let version = fields.count > 1 ? fields[1].integer ?? 0 : 0
        state.withLock { state in
            if epoch != state.epoch || version < state.lastVersion { state.needsJoin = true }
        }
    }

    /// Applies the stream entries of an `XREAD` reply in order; a gap (entries trimmed away) asks for a join.
    private func follow(_ reply: RedisReply) {
        for stream in reply.array ?? [] {
            guard let parts = stream.array, parts.count == 2 else { continue }
            for entry in parts[1].array ?? [] {
                guard let pair = entry.array, pair.count == 2, let id = pair[0].string,
                    let version = Int64(id.prefix { $0 != "-" })
                else { continue }
                let expected = state.withLock { $0.lastVersion + 1 }
                guard version == expected else {
                    state.withLock { $0.needsJoin = true }
                    return
                }
                apply(entry: pair[1].array ?? [], version: version)
            }
        }
    }

    /// One push of some instance: `o` its id, `+key` JSON for a write, `-key` for a removal.
    private func apply(entry fields: [RedisReply], version: Int64) {
        var origin = ""
        var writes: [(String, StoreValue?)] = []
        var index = 0
        while index + 1 < fields.count {
            let name = fields[index].string ?? ""
            let value = fields[index + 1]
            index += 2
            if name == "o" {
                origin = value.string ?? ""
            } else if name.hasPrefix("+"), case .bulk(let bytes) = value {
                guard let decoded = decode(bytes, key: String(name.dropFirst())) else { continue }
                writes.append((String(name.dropFirst()), decoded))
            } else if name.hasPrefix("-") {
                writes.append((String(name.dropFirst()), nil))
            }
        }
        if origin == backend.instance {
            // Our own push: nothing to apply, its keys are known at this version. Taken in once the pusher has taken
            // in its answer (see awaitPushAnswer), so that what follows it in the stream meets the right keys pending.
            awaitPushAnswer()
            state.withLock { state in
                for (key, _) in writes { state.known[key] = max(state.known[key] ?? 0, version) }
                state.lastVersion = version
            }
            return
        }
        link.applyRemote(origin: origin) { root in
            state.withLock { state in
                var operations: [StoreOperation] = []
                for (key, value) in writes where state.takesRemote(key, at: version) {
                    operations += Self.operations(key, value, current: root)
                }
                return operations
            }
        }
        state.withLock { $0.lastVersion = version }
    }

    /// Waits, at most `limit`, until the pusher has taken in the answer to its push on the way, if any. The reader can
    /// see our own push in the stream before the pusher's thread runs again; until then the keys it carried still look
    /// pending, and a change another instance pushed just after ours would be skipped here ("a key changed here and
    /// not yet pushed keeps its local value") although it is newer and wins everywhere else: this instance would keep
    /// a value the others replaced. Once the answer is in, the keys are no longer pending and are known at our push's
    /// version, so that change applies and older ones do not. The limit covers a push whose answer never comes (it
    /// failed on the way back); the reader then goes on as before.
    private func awaitPushAnswer(limit: Duration = .seconds(1)) {
        let deadline = ContinuousClock.now + limit
        while state.withLock({ $0.pushing }), ContinuousClock.now < deadline, !isStopped {
            Thread.sleep(forTimeInterval: 0.000_2)
        }
    }

    /// Reads the whole document and brings the store up to it (docs/fleet.md "Joining"): keys newer in Redis are
    /// applied, keys changed here are kept (and pushed), keys Redis does not know are pushed, never removed. At the
    /// first join, keys written here before it that the document holds take the document's value instead.
    func join(_ client: RedisClient) throws(RedisError) {
        // No push starts while a join is needed; one already on its way is let finish first, so that the keys it
        // carries are not pending while the document is read (the rules still hold if it does not finish in time).
        awaitPushAnswer()
        let asked = state.withLock { $0.joinRequests }
        let reply = try client.call([
            "EVAL", RedisScripts.join, "4", layout.meta, layout.doc, layout.ver, layout.log,
            UUID().uuidString.lowercased(),
        ])
        guard let parts = reply.array, parts.count == 4, let epoch = parts[0].string, let version = parts[1].integer
        else { throw RedisError(.unexpectedReply, "the join script answered \(reply)") }
        let doc = Self.pairs(parts[2])
        var stamps: [String: (version: Int64, origin: String)] = [:]
        for (key, stamp) in Self.pairs(parts[3]) {
            let text = String(decoding: stamp, as: UTF8.self)
            guard let space = text.firstIndex(of: " "), let at = Int64(text[..<space]) else { continue }
            stamps[key] = (at, String(text[text.index(after: space)...]))
        }
        // The catch-up is one change; it names the instance that wrote the newest of the document's keys.
        let newest =
            stamps.values.filter { $0.origin != backend.instance }.max { $0.version < $1.version }?.origin ?? "redis"
        link.applyRemote(origin: newest) { root in
            state.withLock { state in
                reconcile(&state, epoch: epoch, version: version, doc: doc, stamps: stamps, root: root)
            }
        }
        // The store may be gone (then nothing ran); either way this join is done.
        state.withLock { state in
            if state.epoch == epoch && state.joinRequests == asked { state.needsJoin = false }
        }
        markConnected()
        wake.signal()
    }

    private func reconcile(
        _ state: inout State, epoch: String, version: Int64, doc: [String: [UInt8]],
        stamps: [String: (version: Int64, origin: String)], root: StoreValue
    ) -> [StoreOperation] {
        let current = root.objectValue ?? [:]
        // Before the first join nothing was pushed: every pending key was written while this store had never seen
        // the document (defaults of a service started while Redis was away, or a change made meanwhile).
        let firstJoin = state.epoch == nil
        var yielded: [String] = []
        if state.epoch != nil && state.epoch != epoch {
            // Redis lost the document (restarted empty): what the new one holds was written since; keys it lacks are
            // pushed from here below.
            backend.logger.warning(
                "the Redis document is new (Redis lost its data); pushing this instance's keys it lacks",
                metadata: ["namespace": "\(namespace)"])
            state.forgetVersions()
        } else if state.epoch == epoch && version < state.lastVersion {
            // Redis came back from an older save: what this store got after that save is newer, so it is pushed.
            backend.logger.warning(
                "the Redis document went back to an older version; pushing this instance's newer keys",
                metadata: ["namespace": "\(namespace)", "redis": "\(version)", "seen": "\(state.lastVersion)"])
            for (key, at) in state.known where at > version {
                state.known[key] = nil
                state.localChanges += 1
                state.pending[key] = state.localChanges
            }
        }
        var operations: [StoreOperation] = []
        for (key, stamp) in stamps {
            if firstJoin, doc[key] != nil, state.pending[key] != nil {
                // Such a write never replaces what the document holds: it may be far older than the fleet's value
                // (a default), and pushing it would put a stale value over newer data. Redis's value is taken.
                state.pending[key] = nil
                yielded.append(key)
            }
            guard state.takesRemote(key, at: stamp.version) else { continue }
            let value = doc[key].flatMap { decode($0, key: key) }
            if doc[key] != nil && value == nil { continue }
            operations += Self.operations(key, value, current: root)
        }
        for key in current.keys where stamps[key] == nil && state.pending[key] == nil {
            // Never in this document: a local key, pushed rather than removed.
            state.localChanges += 1
            state.pending[key] = state.localChanges
        }
        if !yielded.isEmpty {
            backend.logger.notice(
                "keys written here before the first sync with Redis took the values Redis holds",
                metadata: ["namespace": "\(namespace)", "keys": "\(yielded.sorted())"])
        }
        state.epoch = epoch
        state.lastVersion = version
        return operations
    }

    /// The operation that makes top-level `key` hold `value` (absent for `nil`), none when it already does.
    static func operations(_ key: String, _ value: StoreValue?, current root: StoreValue) -> [StoreOperation] {
        let now = root.objectValue?[key]
        if let value {
            return now == value ? [] : [.set(topLevelPath(key), value)]
        }
        return now == nil ? [] : [.remove(topLevelPath(key))]
    }

    private func decode(_ bytes: [UInt8], key: String) -> StoreValue? {
        do {
            return try StoreValue(jsonBytes: bytes)
        } catch {
            backend.logger.error(
                "a value in Redis is not StoreValue JSON; left as it is here",
                metadata: ["namespace": "\(namespace)", "key": "\(key)", "error": "\(error)"])
            return nil
        }
    }

    private static func pairs(_ reply: RedisReply) -> [String: [UInt8]] {
        let items = reply.array ?? []
        var result: [String: [UInt8]] = [:]
        var index = 0
        while index + 1 < items.count {
            if let key = items[index].string, case .bulk(let bytes) = items[index + 1] { result[key] = bytes }
            index += 2
        }
        return result
    }
}
