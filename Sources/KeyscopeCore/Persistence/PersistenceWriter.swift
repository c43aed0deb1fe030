import Dispatch
import Logging
import Synchronization

/// Saves a store in the background, coalescing bursts of writes into one save of the latest state, so that
/// writers never wait for a disk or a network. ``flush()`` waits until everything written so far is saved.
final class PersistenceWriter: Sendable {
    private struct State {
        var dirty = false
        var scheduled = false
        weak var source: KeyValueStore?
    }

    let storeID: StoreID
    private let driver: any PersistenceDriver
    private let state = Mutex(State())
    private let queue: DispatchQueue

    private static let onQueue = DispatchSpecificKey<Bool>()

    init(storeID: StoreID, driver: any PersistenceDriver) {
        self.storeID = storeID
        self.driver = driver
        self.queue = DispatchQueue(label: "keyscope.persistence")
        queue.setSpecific(key: Self.onQueue, value: true)
    }

    /// Runs `body` on the queue and waits; directly when already on it (a store released by its own save).
    private func onQueue(_ body: () -> Void) {
        if DispatchQueue.getSpecific(key: Self.onQueue) == true {
            body()
        } else {
            queue.sync(execute: body)
        }
    }

    var source: KeyValueStore? {
        get { state.withLock { $0.source } }
        set { state.withLock { $0.source = newValue } }
    }

    func load() throws(StoreError) -> PersistedState? { try driver.load() }

    /// Saves `state` now, on the caller's thread (used when a store is created or reset by the factory).
    func saveNow(_ persisted: PersistedState) throws(StoreError) {
        var result: Result<Void, StoreError> = .success(())
        onQueue { result = Result { () throws(StoreError) in try driver.save(persisted) } }
        try result.get()
    }

    func markDirty() {
        let schedule = state.withLock { state -> Bool in
            state.dirty = true
            if state.scheduled { return false }
            state.scheduled = true
            return true
        }
        if schedule { queue.async { self.saveLatest() } }
    }

    /// Waits for pending saves; then saves once more if anything is still unsaved.
    func flush() {
        onQueue { self.saveLatest() }
    }

    /// Saves `final` if anything is unsaved (the store is going away and can no longer be read).
    func flush(final: PersistedState) {
        onQueue {
            guard self.state.withLock({ $0.dirty }) else { return }
            self.save(final)
        }
    }

    private func saveLatest() {
        let source = state.withLock { state -> KeyValueStore? in
            state.scheduled = false
            guard state.dirty else { return nil }
            state.dirty = false
            return state.source
        }
        guard let source else { return }
        let (root, version) = source.snapshotWithVersion()
        save(PersistedState(root: root, version: version))
    }

    private func save(_ persisted: PersistedState) {
        do {
            try driver.save(persisted)
        } catch {
            // Keep the data marked unsaved so that the next write or flush tries again.
            state.withLock { $0.dirty = true }
            KeyscopeLog.persistence.error("save failed", metadata: ["store": "\(storeID)", "error": "\(error)"])
        }
    }
}
