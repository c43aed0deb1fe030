import Foundation
public import KeyscopeCore
import Logging
import Synchronization

/// Backend storage on Redis: each namespace's document kept in Redis and synced live with every instance of the
/// service that opens it (docs/fleet.md "Backend storage on Redis", docs/fleet.md).
///
/// ```swift
/// let backend = try RedisBackend(url: "redis://127.0.0.1:6379/0", fleet: "shop", instance: "shop-1")
/// let factory = DefaultStoreFactory(backend: backend)
/// let flags = factory.store(storage: .backend(namespace: "flags"))
/// flags.set("checkout.newFlow", true)          // on every instance within a second
/// ```
/// Writes never wait for Redis: the store notes the changed top-level keys and a thread of the backend pushes them.
/// Conflicts resolve per top-level key: the write Redis orders last wins everywhere (docs/fleet.md).
public final class RedisBackend: LiveBackendAdapter {
    /// Tunables of the sync (the defaults suit most services).
    public struct Options: Sendable {
        /// Entries kept in each document's stream (approximately); a reader further behind reads the whole document.
        public var streamLength = 1000
        /// How long opening a store waits for the current document before starting empty (then it catches up).
        public var initialLoadTimeout: Duration = .seconds(2)
        /// How long ``KeyValueStore/flush()`` waits for pending changes to reach Redis.
        public var flushTimeout: Duration = .seconds(2)
        public var connectTimeout: Duration = .seconds(1)
        public var commandTimeout: Duration = .seconds(2)
        /// How long the reader blocks on the stream before checking the document is still the same one.
        public var blockTime: Duration = .seconds(1)
        /// Top-level keys per push at most.
        public var maxPushKeys = 256
        /// How long the pusher lets writes gather before each push (adds that much to the sync latency).
        public var pushCoalescing: Duration = .milliseconds(2)

        public init() {}
    }

    /// The server (with credentials: print ``RedisURL/description`` only, which has none).
    public let url: RedisURL
    /// The fleet: every key lives under `<fleet>:`.
    public let fleet: String
    /// This instance's id, the `origin` of its changes on other instances.
    public let instance: String
    public let options: Options
    let logger = Logger(label: "keyscope.redis")

    /// - Parameters:
    ///   - fleet: the key prefix shared by the instances of one service (`[A-Za-z0-9._-]{1,64}`).
    ///   - instance: this instance's id (`[A-Za-z0-9._-]{1,64}`), by default `<hostname>-<pid>`.
    /// - Throws: ``RedisError`` `badURL` for a bad fleet name or instance id (the message says which).
    public init(url: RedisURL, fleet: String = "keyscope", instance: String? = nil, options: Options = Options())
        throws(RedisError)
    {
        let instance = instance ?? Self.defaultInstanceID()
        try Self.checkFleetName(fleet, "fleet name")
        try Self.checkFleetName(instance, "instance id")
        self.url = url
        self.fleet = fleet
        self.instance = instance
        self.options = options
    }

    /// ``init(url:fleet:instance:options:)`` with the URL as text (`redis://[user:password@]host:port[/db]`).
    public convenience init(
        url: String, fleet: String = "keyscope", instance: String? = nil, options: Options = Options()
    ) throws(RedisError) {
        try self.init(url: RedisURL(parsing: url), fleet: fleet, instance: instance, options: options)
    }

    /// `<hostname>-<pid>`, with characters outside `[A-Za-z0-9._-]` replaced by `-`, at most 64 characters.
    public static func defaultInstanceID() -> String {
        let raw = "\(ProcessInfo.processInfo.hostName)-\(getpid())"
        let allowed = raw.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "-" }
        return String(String(allowed).suffix(64))
    }

    /// Checks a fleet name or an instance id: 1 to 64 of `A-Z a-z 0-9 . _ -` (they become parts of Redis keys).
    /// - Throws: ``RedisError`` `badURL` naming `what` (`"fleet name"`, `"instance id"`).
    public static func checkFleetName(_ name: String, _ what: String) throws(RedisError) {
        let valid =
            (1...64).contains(name.count)
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
        guard valid else {
            throw RedisError(.badURL, "the \(what) \"\(name)\" must be 1 to 64 of A-Z a-z 0-9 . _ -")
        }
    }

    // MARK: LiveBackendAdapter

    public func startSync(namespace: String, version: SemanticVersion, link: BackendLink) -> any BackendSync {
        let layout = RedisLayout(fleet: fleet, namespace: namespace, major: version.major)
        let sync = RedisSync(backend: self, layout: layout, namespace: namespace, link: link)
        sync.start()
        // A store opened while Redis answers starts with the document; otherwise it starts empty and catches up.
        if sync.firstAttempt.wait(timeout: .now() + options.initialLoadTimeout.timeInterval) == .timedOut {
            logger.warning(
                "Redis did not answer in time; the store starts empty and catches up when it does",
                metadata: ["namespace": "\(namespace)", "redis": "\(url)"])
        }
        if sync.status.state == .connected { recordShape(layout, version) }
        return sync
    }

    /// Notes the data version last opened, for ``pull(namespace:)`` (best effort).
    private func recordShape(_ layout: RedisLayout, _ version: SemanticVersion) {
        let client = RedisClient(
            url: url, connectTimeout: options.connectTimeout, commandTimeout: options.commandTimeout)
        _ = try? client.call(["SET", layout.shape, version.description])
    }

    // MARK: BackendAdapter (whole documents, for callers that pull and push by hand)

    /// The namespace's document as of now, at the data version last opened (`nil` when none was).
    public func pull(namespace: String) throws -> PersistedState? {
        let client = RedisClient(
            url: url, connectTimeout: options.connectTimeout, commandTimeout: options.commandTimeout)
        let shapeKey = RedisLayout(fleet: fleet, namespace: namespace, major: 0).shape
        guard let text = try client.call(["GET", shapeKey]).string, let version = SemanticVersion(text) else {
            return nil
        }
        let layout = RedisLayout(fleet: fleet, namespace: namespace, major: version.major)
        var root: [String: StoreValue] = [:]
        let fields = try client.call(["HGETALL", layout.doc]).array ?? []
        var index = 0
        while index + 1 < fields.count {
            if let key = fields[index].string, case .bulk(let bytes) = fields[index + 1] {
                root[key] = try StoreValue(jsonBytes: bytes)
            }
            index += 2
        }
        return PersistedState(root: .object(root), version: version)
    }

    /// Replaces the namespace's document with `state` as one write of this instance (other instances apply it).
    public func push(_ state: PersistedState, namespace: String) throws {
        let layout = RedisLayout(fleet: fleet, namespace: namespace, major: state.version.major)
        let client = RedisClient(
            url: url, connectTimeout: options.connectTimeout, commandTimeout: options.commandTimeout)
        let joined = try client.call([
            "EVAL", RedisScripts.join, "4", layout.meta, layout.doc, layout.ver, layout.log, UUID().uuidString,
        ])
        guard let epoch = joined.array?.first?.string else {
            throw RedisError(.unexpectedReply, "the join script answered \(joined)")
        }
        let root = state.root.objectValue ?? [:]
        let existing = (try client.call(["HKEYS", layout.doc]).array ?? []).compactMap(\.string)
        var arguments: [[UInt8]] = [Array("EVAL".utf8), Array(RedisScripts.push.utf8), Array("4".utf8)]
        arguments += layout.scriptKeys.map { Array($0.utf8) }
        arguments += [epoch, instance, String(options.streamLength), String(root.count)].map { Array($0.utf8) }
        for (key, value) in root { arguments += [Array(key.utf8), value.jsonBytes(sortedKeys: true)] }
        arguments += existing.filter { root[$0] == nil }.map { Array($0.utf8) }
        try client.call(bytes: arguments)
        try client.call(["SET", layout.shape, state.version.description])
    }
}
