public import KeyscopeCore

/// Line 1 of a recording (docs/recording.md): what the file is, when it began, where it came from, and the state of
/// every store at that moment.
///
/// ```swift
/// let header = RecordingHeader(
///     createdAt: .now, source: .init(name: "checkout-service", host: "dev-1", pid: 4242),
///     stores: [.init(id: StoreID("app/memory")!, version: SemanticVersion(1, 4, 0), root: ["cart": ["total": 90]])])
/// let line = try JanssonCodec.encode(header)   // {"createdAt":"…","format":"keyscope-log","source":{…},…}
/// ```
/// Keys a reader does not know are kept in ``extras`` (and ignored by replay): Keyscope's recorder writes
/// `liveSeq`, `muted`, `mutedStores`, `recorder` and `subscriptions` there (docs/recording.md).
public struct RecordingHeader: Sendable, Hashable {
    /// The only `format` a recording has.
    public static let format = "keyscope-log"
    /// The only `version` this reader knows; any other is an error.
    public static let version: Int64 = 1

    /// The process the recording came from; every member is optional.
    public struct Source: Sendable, Hashable {
        public var name: String?
        public var host: String?
        public var pid: Int64?

        public init(name: String? = nil, host: String? = nil, pid: Int64? = nil) {
            self.name = name
            self.host = host
            self.pid = pid
        }
    }

    /// One store as the recording began: its id, semantic version and root (always an object).
    public struct Store: Sendable, Hashable {
        public var id: StoreID
        public var version: SemanticVersion
        public var root: StoreValue

        public init(id: StoreID, version: SemanticVersion, root: StoreValue) {
            self.id = id
            self.version = version
            self.root = root
        }
    }

    /// When the recording began.
    public var createdAt: LogTime
    /// Where it came from, when known.
    public var source: Source?
    /// Every store's state when the recording began, in the order written.
    public var stores: [Store]
    /// Members beyond the contract's, by key (values per docs/store.md); never one of the contract's keys.
    public var extras: [String: StoreValue]

    public init(createdAt: LogTime, source: Source? = nil, stores: [Store], extras: [String: StoreValue] = [:]) {
        self.createdAt = createdAt
        self.source = source
        self.stores = stores
        self.extras = extras
    }

    /// The keys docs/recording.md gives the header; ``extras`` never holds one.
    public static let contractKeys: Set<String> = ["format", "version", "createdAt", "source", "stores"]
}
