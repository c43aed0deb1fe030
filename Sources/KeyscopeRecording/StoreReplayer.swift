import Foundation
public import KeyscopeCodec
public import KeyscopeCore

/// Replays a recording into real stores: a ``KeyscopeCore/KeyValueStore`` per store of the header, registered in a
/// ``KeyscopeCore/StoreRegistry``, each recorded change applied to its store as one change with the recorded `txn`,
/// and each store event as a registry event. Publishers, observers and an inspector hub on the registry see the
/// replay as they would see the recorded process.
///
/// ```swift
/// let reader = try RecordingReader(contentsOf: url)
/// let replayer = try StoreReplayer(header: reader.header)           // a registry of its own
/// let hub = InspectorHub(registry: replayer.registry)               // e.g. to serve the replay
/// let cancellable = replayer.store(StoreID("app/memory")!)!.publisher(for: "cart.total").sink { print($0) }
/// let summary = try await replayer.play(reader, pace: .recorded(speed: 2))
/// assert(replayer.value == replayer.state.value)
/// ```
/// Each event is first checked with a ``ReplayState`` (``state``), so a change that does not apply is refused
/// before any store is touched. The replayer must be the only writer of its stores (serve them read-only).
///
/// Store events: `registered` registers a new store; `removed` unregisters it; `reset` drops the store's data and
/// sets its version through a ``KeyscopeCore/DefaultStoreFactory`` that adopts the registered store, so observers
/// hear `.reset` as they would from the recorded process. A `reset` that keeps the major version (which a recorder
/// never writes) replaces the store with a new, empty one instead (`.removed`, then `.registered`).
///
/// Not thread-safe: use a replayer from one task at a time.
public final class StoreReplayer {
    /// How fast ``play(_:pace:onEvent:)`` goes.
    public enum Pace: Sendable, Hashable {
        /// The recorded gaps between events, divided by `speed` (1: as recorded, 10: ten times as fast).
        case recorded(speed: Double)
        /// No waiting at all.
        case asFastAsPossible
    }

    /// Where the stores are registered.
    public let registry: StoreRegistry
    /// The recorded state the stores are checked against (and equal to while the replayer is their only writer).
    public private(set) var state: ReplayState
    private var stores: [StoreID: KeyValueStore] = [:]

    /// Makes and registers a store for each store of `header` (its id, version and root).
    /// - Throws: ``RecordingError/Code/patchDoesNotApply`` (line 1) when `registry` already has a store with one
    ///   of the ids; nothing stays registered then.
    public init(header: RecordingHeader, registry: StoreRegistry = StoreRegistry()) throws(RecordingError) {
        self.registry = registry
        self.state = ReplayState(header: header)
        for store in header.stores {
            do {
                try register(store.id, version: store.version, root: store.root)
            } catch {
                unregisterAll()
                throw RecordingError(.patchDoesNotApply, line: 1, error.message)
            }
        }
    }

    /// The live store with `id`, if the replay has it now.
    public func store(_ id: StoreID) -> KeyValueStore? { stores[id] }

    /// The live stores, in registration order.
    public var allStores: [KeyValueStore] { state.storeIDs.compactMap { stores[$0] } }

    /// The stores' own state now, read from each store: store id → root, like ``ReplayState/value``.
    public var value: StoreValue {
        var object: [String: StoreValue] = [:]
        for (id, store) in stores { object[id.description] = store.snapshot() }
        return .object(object)
    }

    /// Applies one event to the stores, after checking it against ``state``.
    /// - Throws: ``RecordingError/Code/patchDoesNotApply`` (nothing changed then).
    public func apply(_ entry: LogEntry, line: Int? = nil) throws(RecordingError) {
        try state.apply(entry, line: line)
        switch entry.event {
        case .change(let change):
            guard !change.patches.isEmpty, let store = stores[change.storeID] else { return }
            do {
                try store.apply(
                    change.patches.map(StoreOperation.init(recording:)), transactionID: change.transactionID)
            } catch {
                throw RecordingError(
                    .patchDoesNotApply, line: line,
                    "store \(change.storeID) refused the change (was it written by someone else?): \(error.message)")
            }
        case .registered(let id, let version, let root):
            do {
                try register(id, version: version, root: root)
            } catch {
                throw RecordingError(.patchDoesNotApply, line: line, error.message)
            }
        case .reset(let id, let version):
            guard let store = stores[id] else { return }
            reset(store, to: version)
        case .removed(let id):
            stores[id] = nil
            registry.unregister(id)
        }
    }

    /// Unregisters every store of the replay (observers hear `.removed` for each).
    public func unregisterAll() {
        for id in stores.keys { registry.unregister(id) }
        stores.removeAll()
    }

    /// Reads every remaining event of `reader` and applies it, waiting between events as `pace` says, then returns
    /// the summary. Stops early, without an error, when the task is cancelled (``RecordingReader/isAtEnd`` is then
    /// false). `onEvent` is called after each event is applied.
    /// - Throws: the first ``RecordingError``; the stores keep every event before it.
    public func play(
        _ reader: RecordingReader, pace: Pace = .asFastAsPossible, onEvent: (LogEntry) -> Void = { _ in }
    ) async throws(RecordingError) -> RecordingSummary {
        var summary = RecordingSummary(header: reader.header)
        let clock = ContinuousClock()
        let began = clock.now
        var firstTime: LogTime?
        while !Task.isCancelled, let entry = try reader.next() {
            if case .recorded(let speed) = pace, speed > 0 {
                let first = firstTime ?? entry.time
                firstTime = first
                let offset = Double(entry.time.microsecondsSince1970 - first.microsecondsSince1970) / speed
                let due = began.advanced(by: .microseconds(Int64(offset.rounded())))
                if due > clock.now {
                    do { try await clock.sleep(until: due) } catch { break }  // cancelled
                }
            } else if summary.events % 4096 == 4095 {
                await Task.yield()
            }
            try apply(entry, line: reader.line)
            summary.count(entry)
            onEvent(entry)
        }
        summary.finish(reader: reader, state: state)
        return summary
    }

    private func register(_ id: StoreID, version: SemanticVersion, root: StoreValue) throws(StoreError) {
        let store = KeyValueStore(id: id, version: version, root: root.objectValue ?? [:])
        try registry.register(store)
        stores[id] = store
    }

    private func reset(_ store: KeyValueStore, to version: SemanticVersion) {
        if store.version.major != version.major {
            let factory = DefaultStoreFactory(version: store.version, registry: registry)
            // The factory adopts the store already registered under the id (it opens no storage for it).
            if factory.store(scope: store.scope, storage: store.storage) === store {
                factory.updateVersion(version)
                return
            }
        }
        registry.unregister(store.id)
        stores[store.id] = nil
        // The id was just freed, so registering cannot fail.
        try? register(store.id, version: version, root: .emptyObject)
    }
}
