public import KeyscopeCore

/// What a rewind did (``InspectorHub/rewind(toSeq:)``): the seq of the last change it made, how many logged changes
/// it undid, which stores it rewound and which it could not.
///
/// ```swift
/// let result = try hub.rewind(toSeq: 1200)
/// print(result.seq ?? "nothing changed", result.changes, result.stores, result.skipped.map(\.store))
/// reply(result.jsonObject)   // {"changes":14,"seq":1307,"skipped":[],"stores":["app/memory"]}
/// ```
public struct RewindResult: Sendable, Hashable {
    /// A store the rewind could not put back, and why.
    public struct Skipped: Sendable, Hashable {
        public var store: StoreID
        /// For people: `removed at seq 1250; it cannot come back`.
        public var reason: String

        public init(store: StoreID, reason: String) {
            self.store = store
            self.reason = reason
        }
    }

    /// The seq of the last change the rewind made (each rewound store gets one); `nil` when it changed nothing.
    public var seq: Int?
    /// How many logged changes were undone.
    public var changes: Int
    /// The stores whose changes were undone, ordered by id.
    public var stores: [StoreID]
    /// The stores that changed after the target seq but could not be put back (they were removed), ordered by id.
    public var skipped: [Skipped]

    public init(seq: Int?, changes: Int, stores: [StoreID], skipped: [Skipped]) {
        self.seq = seq
        self.changes = changes
        self.stores = stores
        self.skipped = skipped
    }

    /// The result on the wire (docs/recording.md "Rewind"): `{"seq": N | null, "changes": N, "stores": [id…],
    /// "skipped": [{"store": id, "reason": "…"}…]}`.
    public var jsonObject: StoreValue {
        .object([
            "seq": seq.map { .integer(Int64($0)) } ?? .null,
            "changes": .integer(Int64(changes)),
            "stores": .array(stores.map { .string($0.description) }),
            "skipped": .array(
                skipped.map { .object(["store": .string($0.store.description), "reason": .string($0.reason)]) }),
        ])
    }
}
