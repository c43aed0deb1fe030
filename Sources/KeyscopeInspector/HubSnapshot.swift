public import KeyscopeCore

/// One store in a snapshot: its id, version and whole state.
public struct HubStoreState: Sendable, Hashable {
    public let id: StoreID
    public let version: SemanticVersion
    public let root: StoreValue
    /// How the live backend syncing the store is doing (docs/fleet.md "Visible state"); `nil` for other stores.
    public let backend: BackendStatus?

    public init(id: StoreID, version: SemanticVersion, root: StoreValue, backend: BackendStatus? = nil) {
        self.id = id
        self.version = version
        self.root = root
        self.backend = backend
    }

    /// The store as the object of a `snapshot` message's `stores` list (`scope` and `storage` are the id's halves),
    /// with `"backend": {"redis": …, "state": …, "pending": N}` for a store a live backend syncs.
    public var jsonObject: StoreValue {
        var object: [String: StoreValue] = [
            "id": .string(id.description), "scope": .string(id.scope.description),
            "storage": .string(id.storage.description), "version": .string(version.description), "root": root,
        ]
        if let backend { object["backend"] = backend.jsonObject }
        return .object(object)
    }
}

/// The state of every store the hub knows as of change ``seq``: the next entry a client needs is `seq + 1`.
///
/// ```swift
/// let (snapshot, cursor) = hub.makeCursor()
/// send(snapshot.messageBytes())      // {"type":"snapshot","seq":…,"stores":[…],"subscriptions":[…]}
/// ```
/// Made by reading each store inside a transaction of its own (see ``InspectorHub/snapshot()``), which is why it
/// must not be made from inside a store's observer or transaction.
public struct HubSnapshot: Sendable, Hashable {
    /// The last seq the state includes (0 before any entry).
    public let seq: Int
    /// Ordered by id.
    public let stores: [HubStoreState]
    /// The live subscriptions of those stores, ordered by store id, then subscription id.
    public let subscriptions: [SubscriptionInfo]

    public init(seq: Int, stores: [HubStoreState], subscriptions: [SubscriptionInfo]) {
        self.seq = seq
        self.stores = stores
        self.subscriptions = subscriptions
    }

    /// The store with `id`, if the snapshot has it.
    public func store(_ id: StoreID) -> HubStoreState? { stores.first { $0.id == id } }

    /// The docs/protocol.md `snapshot` message:
    /// `{"type":"snapshot","seq":N,"stores":[{"id","root","scope","storage","version"}…],"subscriptions":[…]}`.
    public func messageBytes() -> [UInt8] {
        var bytes = Array(#"{"type":"snapshot","seq":"#.utf8)
        bytes += Array(String(seq).utf8)
        bytes += Array(#","stores":"#.utf8)
        bytes += StoreValue.array(stores.map(\.jsonObject)).jsonBytes(sortedKeys: true)
        bytes += Array(#","subscriptions":"#.utf8)
        bytes += HubMessages.subscriptionList(subscriptions)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
