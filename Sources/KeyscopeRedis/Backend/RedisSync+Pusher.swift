import Dispatch
import Foundation
import KeyscopeCore
import Logging
import Synchronization

extension RedisSync {
    /// Pending keys taken for one push: their values (nil: removed) and the change count each was taken at.
    struct Batch {
        var epoch: String
        var sets: [(key: String, value: StoreValue)] = []
        var removals: [String] = []
        var taken: [String: UInt64] = [:]
    }

    /// The pusher thread: pushes pending keys whenever there are some and the document has been joined.
    func runPusher() {
        let client = RedisClient(
            url: backend.url, connectTimeout: backend.options.connectTimeout,
            commandTimeout: backend.options.commandTimeout)
        var backoff = RedisBackoff()
        while !isStopped {
            // A short wait lets a burst of writes gather into one push: fewer round trips, and the writers meet the
            // pusher on the store's lock far less often (docs/fleet.md "Pushing").
            Thread.sleep(forTimeInterval: backend.options.pushCoalescing.timeInterval)
            guard let batch = nextBatch() else {
                pause(.milliseconds(500))
                continue
            }
            do throws(RedisError) {
                let reply = try client.call(bytes: arguments(for: batch))
                guard let items = reply.array, items.count == 2, let flag = items[0].integer else {
                    throw RedisError(.unexpectedReply, "the push script answered \(reply)")
                }
                if flag == 1, let version = items[1].integer {
                    acknowledge(batch, version: version)
                    backoff.reset()
                } else {
                    // The document is another incarnation (Redis lost its data): the reader joins it again first.
                    state.withLock { $0.needsJoin = true }
                    pause(.milliseconds(100))
                }
            } catch  where error.isConnectionProblem {
                markUnreachable(error)
                pause(backoff.nextDelay())
            } catch {
                backend.logger.error(
                    "push to Redis failed; retrying", metadata: ["namespace": "\(namespace)", "error": "\(error)"])
                pause(backoff.nextDelay())
            }
            state.withLock { $0.pushing = false }
        }
    }

    /// Up to `maxPushKeys` pending keys with their current values (read under the store's lock, with the keys, so
    /// no local change comes between), or `nil` when there is nothing to push yet.
    private func nextBatch() -> Batch? {
        let limit = backend.options.maxPushKeys
        let batch = link.read { root -> Batch? in
            state.withLock { state -> Batch? in
                guard !state.pending.isEmpty, !state.needsJoin, let epoch = state.epoch else { return nil }
                state.pushing = true
                var batch = Batch(epoch: epoch)
                let members = root.objectValue ?? [:]
                for (key, count) in state.pending.prefix(limit) {
                    batch.taken[key] = count
                    if let value = members[key] {
                        batch.sets.append((key, value))
                    } else {
                        batch.removals.append(key)
                    }
                }
                return batch
            }
        }
        return batch ?? nil
    }

    private func arguments(for batch: Batch) -> [[UInt8]] {
        var arguments: [[UInt8]] = [Array("EVAL".utf8), Array(RedisScripts.push.utf8), Array("4".utf8)]
        arguments += layout.scriptKeys.map { Array($0.utf8) }
        arguments += [
            Array(batch.epoch.utf8), Array(backend.instance.utf8), Array(String(backend.options.streamLength).utf8),
            Array(String(batch.sets.count).utf8),
        ]
        // Encoded here, outside the store's lock.
        for (key, value) in batch.sets { arguments += [Array(key.utf8), value.jsonBytes(sortedKeys: true)] }
        arguments += batch.removals.map { Array($0.utf8) }
        return arguments
    }

    /// The push is in Redis at `version`: keys not changed again meanwhile are no longer pending.
    private func acknowledge(_ batch: Batch, version: Int64) {
        let (more, rejoin) = state.withLock { state -> (Bool, Bool) in
            let rejoin = state.acknowledge(batch.taken, version: version)
            return (!state.pending.isEmpty, rejoin)
        }
        if rejoin {
            backend.logger.debug(
                "a write from another instance came after this push; joining to take it",
                metadata: ["namespace": "\(namespace)"])
        }
        markConnected()
        if more { wake.signal() }
    }
}
