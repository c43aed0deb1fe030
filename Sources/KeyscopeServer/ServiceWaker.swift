import KeyscopeLws
import Synchronization

/// What other threads use to wake the service thread: the lws context to cancel a service wait on, and the flag that
/// makes a burst of appends cost one wake-up.
///
/// Its own object, apart from ``ServerCore``, so that the hub's append hook can hold it strongly: the hook runs under
/// a store's lock on every change, and a weak reference there cost an atomic load of a side table each time. It holds
/// nothing back, so the hub keeps no server alive through it.
final class ServiceWaker: Sendable {
    /// The context while the service loop runs (set and cleared by the service thread).
    let context = Mutex<LwsContextHandle?>(nil)
    /// Set by the first append after it was cleared, so that a burst of changes costs one `lws_cancel_service` at
    /// most. Cleared only by a client that runs dry (`ServerCore.writeAgainIfNeeded`): while it stays set, clients
    /// find new entries from their writable callbacks, and with no client at all appends wake nobody (a new client
    /// asks for its first writable callback itself). Sequentially consistent on both sides: a writer appends then
    /// sets it, the service thread clears it then looks for entries, and one of the two must see the other.
    let pending = Atomic<Bool>(false)

    /// Wakes the service thread to send what the hub appended, once per burst. Called by the hub under a store's
    /// lock: cheap.
    func wake() {
        // A plain load first: while the flag stays set (a busy stream), writers only read its cache line instead
        // of taking it from the service thread with an exchange on every append.
        guard !pending.load(ordering: .sequentiallyConsistent),
            !pending.exchange(true, ordering: .sequentiallyConsistent)
        else { return }
        cancelServiceWait()
    }

    /// Makes the service thread's `lws_service` return, whatever the flag says (stop requests).
    func cancelServiceWait() {
        context.withLock { $0?.wake() }
    }
}
