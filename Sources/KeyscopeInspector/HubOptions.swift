/// How an ``InspectorHub`` bounds its change log and whether it accepts writes.
///
/// ```swift
/// let hub = InspectorHub(options: HubOptions(maxEntries: 10_000, maxBytes: 8 << 20, readOnly: true))
/// ```
/// The log keeps the newest entries that fit both bounds (and always the newest one, however large). A client
/// whose cursor falls behind the oldest kept entry gets a `gap` and a fresh snapshot.
public struct HubOptions: Sendable, Hashable {
    /// The most entries the log keeps (at least 1).
    public var maxEntries: Int
    /// The most bytes the log keeps, counted with ``HubLogEntry/estimatedBytes`` (the estimated size of each
    /// entry's JSON line; see there for what that costs and how close it is).
    public var maxBytes: Int
    /// When set, every write a client asks for (``InspectorHub/apply(_:to:transaction:)`` and every other write of
    /// the hub and its features) is refused with `read_only` before it is looked at.
    public var readOnly: Bool
    /// Why the hub is read-only, said in every refusal (`it was started read-only`);
    /// `nil` says only that it is.
    public var readOnlyReason: String?
    /// How often the hub checks the subscriptions' delivery counts and, when they moved, sends every client the
    /// subscription list again (so deliveries per second can be shown); `nil` sends it only when the set of
    /// subscriptions changes, as docs/protocol.md requires at least.
    public var deliveriesRefresh: Duration?
    /// While the log evicts entries, how often at most the hub gives the memory they freed back to the system
    /// (glibc's `malloc_trim`, on a background queue; nothing on other C libraries); `nil` never does. Without it, a
    /// busy log leaves freed holes in glibc's heaps that count in the process's RSS and grow for minutes
    /// (docs/hardening.md, "Memory").
    public var freedMemoryReturn: Duration?

    public init(
        maxEntries: Int = 100_000, maxBytes: Int = 64 << 20, readOnly: Bool = false, readOnlyReason: String? = nil,
        deliveriesRefresh: Duration? = .seconds(1), freedMemoryReturn: Duration? = .seconds(5)
    ) {
        self.readOnlyReason = readOnlyReason
        self.maxEntries = max(1, maxEntries)
        self.maxBytes = max(1, maxBytes)
        self.readOnly = readOnly
        self.deliveriesRefresh = deliveriesRefresh
        self.freedMemoryReturn = freedMemoryReturn
    }
}
