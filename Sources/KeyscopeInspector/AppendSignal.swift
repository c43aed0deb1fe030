import Synchronization

/// How a hub wakes the reader that follows its log (the inspector's server): the hook installed here is called once
/// after the log grows (an append, or a changed subscription list), then not again until the reader re-arms the
/// signal, so that a burst of changes costs one wake-up.
///
/// ```swift
/// hub.appendSignal.install { wakeServiceThread() }   // before the hub starts; replaces (and releases) any other
/// // on the reader's thread, whenever it has sent everything:
/// hub.appendSignal.rearm()
/// if cursor.nextSeq <= hub.lastSeq { keepSending() }  // look once more: an append before rearm() woke nobody
/// hub.appendSignal.install(nil)                      // when the reader stops
/// ```
/// The writer's side is called under the lock of the store that changed, on every change: while the signal is
/// raised it costs one atomic load (the cache line stays shared between writers), and only the append that raises
/// it reads the hook. The hub keeps the hook only while it is installed: a replaced or removed hook is released
/// once a writer that read it just before has called it (at most that one more call).
public final class AppendSignal: Sendable {
    /// Set by the first append after ``rearm()`` (or ``install(_:)``); while set, appends call nothing. Sequentially
    /// consistent on both sides: a writer appends then reads it, the reader lowers it then looks for entries, and one
    /// of the two must see the other.
    private let raised = Atomic<Bool>(false)
    private let hook = Mutex<(@Sendable () -> Void)?>(nil)

    init() {}

    /// Installs the hook, releasing the one it replaces; `nil` removes it. The signal starts lowered: the next
    /// change calls the new hook. Keep the hook trivial (it runs under a store's lock) and never call the hub
    /// from it.
    public func install(_ hook: (@Sendable () -> Void)?) {
        self.hook.withLock { $0 = hook }
        raised.store(false, ordering: .sequentiallyConsistent)
    }

    /// Whether a hook is installed.
    public var isInstalled: Bool { hook.withLock { $0 != nil } }

    /// Lowers the signal: the next change calls the hook again. Call it when everything the log held was read, then
    /// read once more, since a change made before this call woke nobody.
    public func rearm() {
        raised.store(false, ordering: .sequentiallyConsistent)
    }

    /// The log grew: calls the hook unless the signal is already raised.
    func raise() {
        // A plain load first: while the signal stays raised (a busy stream), writers only read its cache line
        // instead of taking it from each other with an exchange on every change.
        guard !raised.load(ordering: .sequentiallyConsistent), !raised.exchange(true, ordering: .sequentiallyConsistent)
        else { return }
        // Copied out (retained) so that the hook is called outside the lock and outlives a concurrent install.
        let current = hook.withLock { $0 }
        current?()
    }
}
