import Dispatch
import Foundation
import KeyscopeCore
public import KeyscopeInspector
public import Logging
import Synchronization

/// Watch rules, checked against the inspector hub's mutation log: every change that breaks a rule is flagged with
/// its seq, so the dashboard can link the violation to the change.
///
/// ```swift
/// let rules = WatchRules(hub: hub, rules: [
///     WatchRule(id: "cart-total", store: StoreID("app/memory")!, path: "cart.total", allowed: [0, 100]),
/// ])
/// rules.start()                        // follows the log on a background queue, every 100 ms
/// rules.states()                       // [cart-total: current 100, ok, 0 violations]
/// rules.violations().first?.seq        // the change that broke a rule most recently
/// ```
/// - The rules read the log through their own ``HubCursor``: a snapshot first (every rule is evaluated on it),
///   then every entry of the watched stores, in seq order. They keep a copy of each watched store's state, updated
///   by the entries' patches, so each value is the one right after its change. A change is evaluated for the
///   rules whose path it can affect (the path itself, an ancestor, a descendant, or an array its index shifts).
/// - A rule is evaluated when its value changes: a value that breaks it is one violation (seq, time, value,
///   ``WatchRule/message(for:)``), kept newest first in a list of at most `maxViolations`, and logged at warning.
///   A rule found broken in a snapshot (at the start, or after the log's tail passed the cursor: a `gap`) gets the
///   snapshot's seq.
/// - Work is bounded: a pass reads at most `maxEntriesPerPass` entries; a log that grows faster than that makes
///   the cursor fall behind, and the next pass re-evaluates from a snapshot.
/// - The rules read only while the hub runs (``InspectorHub/start()``); while it is stopped they keep the state
///   they had. A store that leaves the registry makes its paths missing.
///
/// Thread-safe. Call ``stop()`` (or release the rules) to stop polling.
public final class WatchRules: Sendable {
    public let hub: InspectorHub
    /// How often the background queue reads the log (``start()``).
    public let pollInterval: Duration
    /// How many violations ``violations()`` keeps.
    public let maxViolations: Int
    /// How many log entries one pass reads at most.
    public let maxEntriesPerPass: Int
    let logger: Logger

    struct RuleSlot {
        var rule: WatchRule
        var current: StoreValue?
        var ok = true
        var violations = 0
        var seq = 0
        var evaluated = false
    }

    struct Engine {
        var cursor: HubCursor?
        /// The state of each watched store as of the newest entry read (absent: the hub does not know it).
        var roots: [StoreID: StoreValue] = [:]
        var rules: [RuleSlot] = []
        /// Newest first.
        var violations: [WatchViolation] = []
        /// Set when a rule was added or an entry did not apply: the next pass starts from a snapshot.
        var needsResync = true
    }

    /// Held for a whole pass (reading the cursor and evaluating), so passes never overlap.
    let engine = Mutex(Engine())
    private let timer = Mutex<(any DispatchSourceTimer)?>(nil)

    public init(
        hub: InspectorHub, rules: [WatchRule] = [], pollInterval: Duration = .milliseconds(100),
        maxViolations: Int = 200, maxEntriesPerPass: Int = 10_000, logger: Logger = Logger(label: "keyscope.watches")
    ) {
        self.hub = hub
        self.pollInterval = pollInterval
        self.maxViolations = max(1, maxViolations)
        self.maxEntriesPerPass = max(1, maxEntriesPerPass)
        self.logger = logger
        for rule in rules { add(rule) }
    }

    deinit {
        timer.withLock { $0?.cancel() }
    }

    /// Adds a rule (replacing the one with the same id); the next pass evaluates it on a fresh snapshot.
    public func add(_ rule: WatchRule) {
        engine.withLock { engine in
            if let index = engine.rules.firstIndex(where: { $0.rule.id == rule.id }) {
                engine.rules[index] = RuleSlot(rule: rule)
            } else {
                engine.rules.append(RuleSlot(rule: rule))
            }
            engine.needsResync = true
        }
    }

    /// The rules, in the order they were added.
    public var rules: [WatchRule] { engine.withLock { $0.rules.map(\.rule) } }

    /// Starts reading the log every ``pollInterval`` on a background queue. Does nothing when already started.
    public func start() {
        timer.withLock { timer in
            guard timer == nil else { return }
            let (seconds, attoseconds) = pollInterval.components
            let interval = max(1_000_000, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
            let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "keyscope.watches.rules"))
            source.schedule(deadline: .now(), repeating: .nanoseconds(interval))
            source.setEventHandler { [weak self] in
                guard let self else { return }
                _ = self.pass()
            }
            source.resume()
            timer = source
        }
    }

    /// Stops the background reading; ``evaluateNow()`` still works. Safe to call more than once.
    public func stop() {
        timer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
    }

    /// Reads the log up to its newest entry now, on the calling thread (waiting for a pass under way).
    public func evaluateNow() {
        var passes = 1
        while pass(), passes < 1000 { passes += 1 }
    }

    /// Every rule's state, in the order the rules were added.
    public func states() -> [WatchRuleState] {
        engine.withLock { engine in
            engine.rules.map {
                WatchRuleState(rule: $0.rule, current: $0.current, ok: $0.ok, violations: $0.violations, seq: $0.seq)
            }
        }
    }

    /// The newest violations, newest first (at most ``maxViolations``).
    public func violations() -> [WatchViolation] {
        engine.withLock { $0.violations }
    }

    /// One pass: a snapshot when needed, then at most ``maxEntriesPerPass`` entries. Returns whether entries (or a
    /// resync) are left for another pass. Violations are logged after the lock is released.
    func pass() -> Bool {
        // A stopped hub logged a `removed` for every store: waiting for its restart (which logs `registered` for
        // each) keeps a stop and start from reading as every path going missing and coming back.
        guard hub.isRunning else { return false }
        let (found, more) = engine.withLock { engine -> ([WatchViolation], Bool) in
            var found: [WatchViolation] = []
            var budget = maxEntriesPerPass
            while budget > 0 {
                if engine.needsResync || engine.cursor == nil {
                    let snapshot: HubSnapshot
                    if let cursor = engine.cursor {
                        snapshot = cursor.resync()
                    } else {
                        let made = hub.makeCursor()
                        engine.cursor = made.cursor
                        snapshot = made.snapshot
                    }
                    engine.needsResync = false
                    apply(snapshot, to: &engine, found: &found)
                }
                guard let cursor = engine.cursor, let read = cursor.next(maxEntries: budget, maxBytes: 1 << 30) else {
                    return (found, false)
                }
                switch read {
                case .entries(let entries):
                    budget -= entries.count
                    apply(entries, to: &engine, found: &found)
                case .gap(_, _, let snapshot), .snapshot(let snapshot):
                    budget -= 1
                    apply(snapshot, to: &engine, found: &found)
                }
            }
            return (found, true)
        }
        for violation in found.reversed() {
            logger.warning(
                "watch rule \(violation.rule) broken at seq \(violation.seq): \(violation.message)",
                metadata: [
                    "rule": "\(violation.rule)", "store": "\(violation.store)", "path": "\(violation.path)",
                    "seq": "\(violation.seq)",
                ])
        }
        return more
    }
}
