/// Where one namespace's document lives in Redis (docs/fleet.md "Redis layout"), for data of one major version:
///
/// | key | type | holds |
/// | --- | --- | --- |
/// | `<fleet>:backend:<ns>:v<major>:meta` | hash | `epoch` (random id of this incarnation of the document), `version` (counter) |
/// | `<fleet>:backend:<ns>:v<major>:doc` | hash | top-level key → its value as JSON text (docs/store.md) |
/// | `<fleet>:backend:<ns>:v<major>:ver` | hash | top-level key → `"<version> <instance>"` of its last write or removal |
/// | `<fleet>:backend:<ns>:v<major>:log` | stream | one entry per push, id `<version>-0`, trimmed to about N entries |
/// | `<fleet>:backend:<ns>:shape` | string | the data version last opened (for ``RedisBackend/pull(namespace:)``) |
struct RedisLayout: Sendable {
    let meta: String
    let doc: String
    let ver: String
    let log: String
    let shape: String

    init(fleet: String, namespace: String, major: Int) {
        let base = "\(fleet):backend:\(namespace)"
        shape = "\(base):shape"
        meta = "\(base):v\(major):meta"
        doc = "\(base):v\(major):doc"
        ver = "\(base):v\(major):ver"
        log = "\(base):v\(major):log"
    }

    /// The four keys the scripts take, in their order.
    var scriptKeys: [String] { [meta, doc, ver, log] }
}

/// The Lua scripts: each runs atomically in Redis, so a document is never seen half-written, and an instance killed
/// mid-push leaves the whole push or none of it.
enum RedisScripts {
    /// Makes the document when it does not exist (a new namespace, or a Redis that lost its data: a new `epoch`,
    /// and the leftovers of the old one removed), then returns `{epoch, version, doc as [k, v, …], ver as [k, v, …]}`.
    /// ARGV: a fresh epoch id.
    static let join = """
        local epoch = redis.call('HGET', KEYS[1], 'epoch')
        if not epoch then
          redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
          redis.call('HSET', KEYS[1], 'epoch', ARGV[1], 'version', 0)
          epoch = ARGV[1]
        end
        local version = redis.call('HGET', KEYS[1], 'version')
        return {epoch, version, redis.call('HGETALL', KEYS[2]), redis.call('HGETALL', KEYS[3])}
        """

    /// Writes top-level keys as one new version, if the document is still the incarnation the caller knows.
    /// ARGV: epoch, instance id, stream length, number of sets N, then N pairs key, JSON, then keys to remove.
    /// Returns `{1, version}`, or `{0, epoch or false}` when the epoch differs (the caller joins again first).
    static let push = """
        local epoch = redis.call('HGET', KEYS[1], 'epoch')
        if epoch ~= ARGV[1] then return {0, epoch} end
        local version = redis.call('HINCRBY', KEYS[1], 'version', 1)
        local stamp = version .. ' ' .. ARGV[2]
        local n = tonumber(ARGV[4])
        local entry = {'o', ARGV[2]}
        for i = 0, n - 1 do
          local key = ARGV[5 + 2 * i]
          redis.call('HSET', KEYS[2], key, ARGV[6 + 2 * i])
          redis.call('HSET', KEYS[3], key, stamp)
          entry[#entry + 1] = '+' .. key
          entry[#entry + 1] = ARGV[6 + 2 * i]
        end
        for i = 5 + 2 * n, #ARGV do
          redis.call('HDEL', KEYS[2], ARGV[i])
          redis.call('HSET', KEYS[3], ARGV[i], stamp)
          entry[#entry + 1] = '-' .. ARGV[i]
          entry[#entry + 1] = ''
        end
        redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[3], version .. '-0', unpack(entry))
        return {1, version}
        """
}
