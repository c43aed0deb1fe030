/// The rules that decide, key by key, what a synced store takes from Redis (docs/fleet.md "The conflict rule"), on
/// the state the pusher and the reader share. Each runs under the state's lock.
extension RedisSync.State {
    /// Whether another instance's write (or removal) of top-level `key` at Redis version `version` is applied here.
    ///
    /// Not when this store already holds a write of the key at that version or a newer one, and not while the key has
    /// a local change not yet acknowledged: that change is pushed later and wins. A push already on its way may still
    /// get an older version than this write, though (the reader can meet the write before the pusher has the answer):
    /// the write is noted, and ``acknowledge(_:version:)`` asks for a join when it turns out to be the newer one.
    mutating func takesRemote(_ key: String, at version: Int64) -> Bool {
        if pending[key] != nil {
            passedOver[key] = max(passedOver[key] ?? 0, version)
            return false
        }
        if (known[key] ?? 0) >= version { return false }
        known[key] = version
        return true
    }

    /// A push of the `taken` keys (key → the local change count it was taken at) is in Redis at `version`: the keys
    /// not changed here again meanwhile are no longer pending, and every one is known at that version.
    ///
    /// When another instance's write of such a key was passed over while the push was on its way and Redis ordered it
    /// after this push, that write is the key's value everywhere else: a join is asked for (``joinRequests``), which
    /// takes it from the document. Returns whether one was.
    mutating func acknowledge(_ taken: [String: UInt64], version: Int64) -> Bool {
        var rejoin = false
        for (key, count) in taken {
            known[key] = max(known[key] ?? 0, version)
            guard pending[key] == count else { continue }
            pending[key] = nil
            if let over = passedOver.removeValue(forKey: key), over > version { rejoin = true }
        }
        pushing = false
        if rejoin {
            needsJoin = true
            joinRequests &+= 1
        }
        return rejoin
    }

    /// Forgets what versions meant: the document is a new incarnation, whose counter started over.
    mutating func forgetVersions() {
        known = [:]
        passedOver = [:]
    }
}
