import Dispatch
import Foundation
public import Logging
import Synchronization

/// Named statuses mirrored into preference keys (`p_<name>`) of a UserDefaults suite, so that they show in the
/// inspector's Preferences panel, their changes are in its mutation log, and the Watches panel shows them.
///
/// ```swift
/// let tracker = StatusTracker(suite: "com.shop.status", refreshInterval: .seconds(30))
/// tracker.add(WatchedStatus("DataDirWritable") { FileManager.default.isWritableFile(atPath: dir) ? "yes" : "no" })
/// tracker.start()             // creates the missing keys, then refreshes on the timer
/// tracker.refresh()           // now (POST /api/watches/refresh does this)
/// tracker.summary()           // [DataDirWritable: value yes, stored yes, in sync]
/// ```
/// - A refresh asks every provider and writes a key only when the provider's value differs from what the key
///   holds (a real change, or a repair of a key someone edited meanwhile); an unchanged status costs no write.
///   Each write is saved (`synchronize()` on Linux), logged as `p_Name: before → after` (info) and kept in the
///   status' history (the latest `historyLimit`).
/// - Refreshes happen on ``refresh()``, every `refreshInterval` (when given) on a background queue, and when the
///   app becomes active (`UIApplication`/`NSApplication` didBecomeActive) on Apple platforms. Linux has no such
///   lifecycle notification: use the interval or call ``refresh()``.
/// - Refreshes never overlap: one waits for the other.
///
/// Thread-safe. Call ``stop()`` (or release the tracker) to stop the timer.
public final class StatusTracker: Sendable {
    /// The prefix of every status key.
    public static let keyPrefix = "p_"

    /// The suite the statuses are mirrored into.
    public let suiteName: String
    /// How often the timer refreshes; `nil`: no timer.
    public let refreshInterval: Duration?
    /// How many changes each status' history keeps.
    public let historyLimit: Int
    let logger: Logger

    struct Tracked {
        var status: WatchedStatus
        var value: String?
        var checked: Date?
        var history: [StatusChange] = []
    }

    struct State {
        var tracked: [Tracked] = []
        var writes = 0
        var started = false
    }

    let state = Mutex(State())
    /// Serialises refreshes (providers are called and keys written while it is held); never taken under `state`.
    let refreshing = Mutex(())
    private let timer = Mutex<(any DispatchSourceTimer)?>(nil)
    private let lifecycle = Mutex<LifecycleObservation?>(nil)

    /// A tracker over `statuses` in `suite`; nothing is read or written before ``start()`` or ``refresh()``.
    public init(
        suite: String, statuses: [WatchedStatus] = [], refreshInterval: Duration? = nil, historyLimit: Int = 20,
        logger: Logger = Logger(label: "keyscope.status")
    ) {
        self.suiteName = suite
        self.refreshInterval = refreshInterval
        self.historyLimit = max(1, historyLimit)
        self.logger = logger
        state.withLock { $0.tracked = statuses.map { Tracked(status: $0) } }
    }

    deinit {
        timer.withLock { $0?.cancel() }
    }

    /// Adds a status (replacing one with the same name); after ``start()`` it is checked at the next refresh.
    public func add(_ status: WatchedStatus) {
        state.withLock { state in
            if let index = state.tracked.firstIndex(where: { $0.status.name == status.name }) {
                state.tracked[index].status = status
            } else {
                state.tracked.append(Tracked(status: status))
            }
        }
    }

    /// Adds a status named `name` whose value `provider` tells.
    public func add(_ name: String, provider: @escaping @Sendable () -> String) {
        add(WatchedStatus(name, provider: provider))
    }

    /// The names of the statuses, in the order they were added.
    public var names: [String] { state.withLock { $0.tracked.map(\.status.name) } }

    /// How many times a key was written since the tracker was made (creations, changes and repairs).
    public var writeCount: Int { state.withLock { $0.writes } }

    /// Refreshes once (creating the missing keys), then starts the timer and the lifecycle observation. Does
    /// nothing when already started.
    public func start() {
        let first = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        refresh()
        if let refreshInterval {
            let nanoseconds = Self.nanoseconds(refreshInterval)
            timer.withLock { timer in
                let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "keyscope.status.timer"))
                source.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
                source.setEventHandler { [weak self] in self?.timerFired() }
                source.resume()
                timer = source
            }
        }
        lifecycle.withLock { $0 = LifecycleObservation { [weak self] in self?.refresh() } }
    }

    /// Stops the timer and the lifecycle observation, and waits for a refresh under way; ``refresh()`` still
    /// works. Safe to call more than once.
    public func stop() {
        timer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
        lifecycle.withLock { $0 = nil }
        refreshing.withLock { _ in }
    }

    /// The timer's refresh: skipped when ``stop()`` came first (a tick may already be on its way when it cancels).
    private func timerFired() {
        refreshing.withLock { _ in
            guard timer.withLock({ $0 != nil }) else { return }
            refreshHoldingLock()
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1_000_000, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
