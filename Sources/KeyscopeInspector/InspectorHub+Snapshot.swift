import KeyscopeCore
import Logging
import Synchronization

extension InspectorHub {
    /// One store as a snapshot read it: under the store's own lock, with the log's newest seq at that moment.
    private struct StoreRead {
        var version: SemanticVersion
        var root: StoreValue
        /// Every entry of this store up to this seq is in `root`; none after it is.
        var readAt: Int
    }

    /// A snapshot consistent with one seq, and the subscriptions version its lists are at least as new as.
    ///
    /// The hub keeps no copy of the stores (that would cost every write a second patch). Instead each known store
    /// is read inside a transaction that writes nothing: its body runs under the store's lock, and the observer
    /// appends the store's entries under that same lock, so the log's newest seq read in the body tells exactly
    /// which of the store's entries the root holds. The entries logged while the stores were read (few: only those
    /// of the snapshot's own short span, kept from eviction by a pin) then bring every store to the same seq. A
    /// store that leaves its registry while this runs may be left out just before its `removed` entry.
    func makeSnapshot() -> (snapshot: HubSnapshot, subscriptionsVersion: Int) {
        let start = state.withLock { state in
            state.pins.append(state.log.lastSeq)
            return (seq: state.log.lastSeq, known: Array(state.known.keys), version: state.subscriptionsVersion)
        }
        defer { state.withLock { _ = $0.pins.remove(at: $0.pins.firstIndex(of: start.seq)!) } }

        var reads: [StoreID: StoreRead] = [:]
        for id in start.known {
            guard let store = registry.store(id) else { continue }
            reads[id] = try? store.transaction { tx in
                StoreRead(
                    version: store.version, root: tx.get(.root) ?? .emptyObject,
                    readAt: state.withLock { $0.log.lastSeq })
            }
        }
        let (seq, meanwhile) = state.withLock { state in
            (state.log.lastSeq, state.log.entries(from: start.seq + 1, limit: .max))
        }
        for entry in meanwhile where entry.seq > reads[entry.storeID]?.readAt ?? 0 {
            Self.apply(entry, to: &reads)
        }

        let stores = reads.sorted { $0.key < $1.key }.map {
            HubStoreState(
                id: $0.key, version: $0.value.version, root: $0.value.root,
                backend: (registry.store($0.key) as? KeyValueStore)?.backendStatus)
        }
        let known = state.withLock { $0.known }
        var subscriptions: [SubscriptionInfo] = []
        for store in stores { subscriptions += liveSubscriptions(of: store.id) ?? known[store.id] ?? [] }
        return (HubSnapshot(seq: seq, stores: stores, subscriptions: subscriptions), start.version)
    }

    /// Takes one logged entry into the stores being read.
    private static func apply(_ entry: HubLogEntry, to reads: inout [StoreID: StoreRead]) {
        let id = entry.storeID
        switch entry.event {
        case .registered(let version, let root):
            reads[id] = StoreRead(version: version, root: root, readAt: entry.seq)
        case .change(let change):
            // A store that could not be read (it left the registry) is not in the snapshot: its entries are moot.
            guard reads[id] != nil else { return }
            for patch in change.patches {
                do throws(StoreError) {
                    try reads[id]!.root.apply(patch: patch)
                } catch {
                    InspectorLog.hub.error(
                        "a logged change does not apply to the store's state read for a snapshot",
                        metadata: ["store": "\(id)", "seq": "\(entry.seq)", "error": "\(error)"])
                    return
                }
            }
        case .reset(let version):
            reads[id]?.root = .emptyObject
            reads[id]?.version = version
        case .removed:
            reads[id] = nil
        }
    }
}
