import Dispatch
import Foundation
import KeyscopeCore
import Logging
import Synchronization

/// Keeps the writable copy and the store in step, in both directions, on one serial queue: the store's changes
/// are saved (bursts coalesced into one save of the latest state), and edits other programs make to the file are
/// checked and applied to the store.
///
/// Both directions run on the same queue, so a save and a reload never interleave. ``State/written`` is what the
/// file holds as far as we know: a save of an equal state is skipped, and a file event whose content equals it (our
/// own atomic write, seen by the watcher) is not taken for an edit.
final class TunablesFile: Sendable {
    let url: URL
    let store: KeyValueStore
    let logger: Logger
    /// The checks a whole new set of values from the file must pass (the schema's).
    private let check: @Sendable ([String: StoreValue]) throws(TunablesError) -> Void
    private let queue = DispatchQueue(label: "keyscope.tunables.file")
    private static let onQueue = DispatchSpecificKey<Bool>()

    private struct State {
        /// The file's content as of our last save or accepted edit; `nil` when unknown (the file was removed).
        var written: StoreValue?
        var saveScheduled = false
        var lastSaveError: TunablesError?
        var stopped = false
    }

    private let state: Mutex<State>

    init(
        url: URL, store: KeyValueStore, written: StoreValue?, logger: Logger,
        check: @escaping @Sendable ([String: StoreValue]) throws(TunablesError) -> Void
    ) {
        self.url = url
        self.store = store
        self.logger = logger
        self.check = check
        self.state = Mutex(State(written: written))
        queue.setSpecific(key: Self.onQueue, value: true)
    }

    /// The store changed: saves its latest state soon (one save for a burst of changes).
    func storeChanged() {
        let schedule = state.withLock { state -> Bool in
            guard !state.stopped, !state.saveScheduled else { return false }
            state.saveScheduled = true
            return true
        }
        if schedule { queue.async { self.save() } }
    }

    /// Saves the store's state now, waits for it, and reports the save's failure, if any.
    func flush() throws(TunablesError) {
        onQueue { self.save() }
        if let error = state.withLock({ $0.lastSaveError }) { throw error }
    }

    /// The file may have changed on disk: reads and applies it on the queue.
    func fileChanged() {
        queue.async { self.reload() }
    }

    /// Saves what is pending, then ignores every later change and file event.
    func stop() {
        onQueue {
            self.save()
            self.state.withLock { $0.stopped = true }
        }
    }

    /// Runs `body` on the queue and waits; inline when already there (a subscriber released on the queue).
    private func onQueue(_ body: () -> Void) {
        if DispatchQueue.getSpecific(key: Self.onQueue) == true { body() } else { queue.sync(execute: body) }
    }

    // MARK: On the queue

    private func save() {
        let skip = state.withLock { state -> Bool in
            state.saveScheduled = false
            return state.stopped
        }
        guard !skip else { return }
        let root = store.snapshot()
        guard root != state.withLock({ $0.written }) else {
            state.withLock { $0.lastSaveError = nil }
            return
        }
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(root.jsonData(pretty: true), to: url)
            state.withLock {
                $0.written = root
                $0.lastSaveError = nil
            }
        } catch {
            let failure = TunablesError(code: .io, message: "could not save \(url.path): \(error)")
            logger.error(
                "could not save the tunables; the values are kept in memory and saved again on the next change",
                metadata: ["file": "\(url.path)", "error": "\(error)"])
            state.withLock { $0.lastSaveError = failure }
        }
    }

    private func reload() {
        guard !state.withLock({ $0.stopped }) else { return }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) {
                // Perhaps an editor's delete-then-create save: wait for the new file rather than write over it.
                logger.warning(
                    "the tunables file was removed; keeping the values in memory, the next change writes it again",
                    metadata: ["file": "\(url.path)"])
                state.withLock { $0.written = nil }
            } else {
                logger.error(
                    "could not read the tunables file; keeping the last good values",
                    metadata: ["file": "\(url.path)", "error": "\(error)"])
            }
            return
        }
        let parsed: StoreValue
        do {
            parsed = try StoreValue(jsonData: data)
        } catch {
            logger.error(
                "the tunables file does not parse; keeping the last good values until it is fixed",
                metadata: ["file": "\(url.path)", "offset": "\(error.offset)", "reason": "\(error.reason)"])
            return
        }
        guard case .object(let values) = parsed else {
            logger.error(
                "the tunables file must be a JSON object of key → value; keeping the last good values",
                metadata: ["file": "\(url.path)", "found": "\(parsed.typeName)"])
            return
        }
        // Our own write coming back through the watcher, or an edit that changed nothing.
        guard parsed != state.withLock({ $0.written }) else { return }
        do {
            try check(values)
        } catch {
            let problem = error.code == .badKey ? "has a key no tunables file may hold" : "breaks the schema"
            logger.error(
                "the tunables file \(problem); keeping the last good values until it is fixed",
                metadata: ["file": "\(url.path)", "error": "\(error.message)"])
            return
        }
        let previous = state.withLock { state in
            defer { state.written = parsed }
            return state.written
        }
        do {
            // `written` is already the file's content, so the store change this makes is not saved back.
            if try TunablesDocument.replace(store, with: values) {
                logger.info("applied an edit of the tunables file", metadata: ["file": "\(url.path)"])
            }
        } catch {
            state.withLock { $0.written = previous }
            logger.error(
                "could not apply an edit of the tunables file", metadata: ["file": "\(url.path)", "error": "\(error)"])
        }
    }
}
