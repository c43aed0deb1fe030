/// The subscriptions of one store, indexed by their first path segment so that a write only looks at the
/// subscriptions whose paths can overlap it.
struct SubscriptionIndex {
    private(set) var entries: [UInt64: SubscriptionEntry] = [:]
    /// Subscriptions with the root among their paths hear every write.
    private var rootListeners: Set<UInt64> = []
    private var byFirstSegment: [StoreKeyPath.Segment: Set<UInt64>] = [:]

    var isEmpty: Bool { entries.isEmpty }

    mutating func insert(_ entry: SubscriptionEntry) {
        entries[entry.id] = entry
        for path in entry.keyPaths {
            if let first = path.segments.first {
                byFirstSegment[first, default: []].insert(entry.id)
            } else {
                rootListeners.insert(entry.id)
            }
        }
    }

    mutating func remove(_ id: UInt64) -> Bool {
        guard let entry = entries.removeValue(forKey: id) else { return false }
        rootListeners.remove(id)
        for case let first? in entry.keyPaths.map(\.segments.first) {
            byFirstSegment[first]?.remove(id)
            if byFirstSegment[first]?.isEmpty == true { byFirstSegment[first] = nil }
        }
        return true
    }

    /// The values to deliver after `patches` made `root`: one item per subscription whose values really changed.
    /// Updates each subscription's last values (called under the store lock, so in mutation order).
    func changedValues(for patches: some Collection<StorePatch>, in root: StoreValue) -> [DeliveryQueue.Item] {
        guard !entries.isEmpty else { return [] }
        var candidates = rootListeners
        for patch in patches {
            guard let first = patch.keyPath.segments.first else {
                candidates = Set(entries.keys)
                break
            }
            if let ids = byFirstSegment[first] { candidates.formUnion(ids) }
        }
        var items: [DeliveryQueue.Item] = []
        for id in candidates {
            guard let entry = entries[id],
                entry.keyPaths.contains(where: { path in patches.contains { $0.keyPath.overlaps(path) } })
            else { continue }
            let values = entry.keyPaths.map { root[$0] }
            if values != entry.lastValues {
                entry.lastValues = values
                items.append(DeliveryQueue.Item(entry: entry, values: values))
            }
        }
        return items
    }
}
