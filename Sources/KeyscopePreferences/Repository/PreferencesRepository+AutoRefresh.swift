import Dispatch
import Synchronization

/// The optional periodic rescan.
extension PreferencesRepository {
    /// Rescans every source every `interval` from now on (replacing an earlier timer), on a background queue; off
    /// until called. Rescans never overlap.
    public func startAutoRefresh(every interval: Duration) {
        guard !isStopped else { return }
        let (seconds, attoseconds) = interval.components
        let nanoseconds = max(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000), 1_000_000)
        autoRefresh.withLock { current in
            current?.cancel()
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
            timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
            timer.setEventHandler { [weak self] in self?.rescan() }
            timer.resume()
            current = timer
        }
    }

    /// Stops the periodic rescan (a rescan under way finishes).
    public func stopAutoRefresh() {
        autoRefresh.withLock { current in
            current?.cancel()
            current = nil
        }
    }

    /// Whether a periodic rescan is on.
    public var isAutoRefreshing: Bool { autoRefresh.withLock { $0 != nil } }
}
