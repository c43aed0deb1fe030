import Foundation
public import KeyscopeCore
import KeyscopeInspector

/// Watched statuses and watch rules, as the inspector serves them: the Watches panel (`GET /api/watches`) and
/// `POST /api/watches/refresh`.
///
/// ```swift
/// let tracker = StatusTracker(suite: "com.shop.status", statuses: [writable], refreshInterval: .seconds(30))
/// let rules = WatchRules(hub: hub, rules: [cartTotalRule])
/// let watches = Watches(statuses: tracker, rules: rules)
/// watches.start()                  // the tracker's first refresh and timer, the rules' polling
/// hub.add(WatchesFeature(watches))  // the inspector serves them
/// ```
/// The panel is docs/preferences.md's "The Watches panel": `statuses` (each with its history, oldest first),
/// `rules` (each with its current value, ok flag and violation count) and `violations` (newest first). Times are
/// in the log's form (RFC 3339, UTC, microseconds: `2026-11-21T10:00:00.000000Z`).
public final class Watches: WatchesEndpoint {
    /// The statuses, if any.
    public let statuses: StatusTracker?
    /// The rules, if any.
    public let rules: WatchRules?

    public init(statuses: StatusTracker? = nil, rules: WatchRules? = nil) {
        self.statuses = statuses
        self.rules = rules
    }

    /// Starts the tracker and the rules.
    public func start() {
        statuses?.start()
        rules?.start()
    }

    /// Stops the tracker's timer and the rules' polling.
    public func stop() {
        statuses?.stop()
        rules?.stop()
    }

    /// Re-reads every status now (writing the ones that changed), then brings the rules up to the newest change,
    /// so the panel that follows shows both.
    public func refresh() {
        statuses?.refresh()
        rules?.evaluateNow()
    }

    /// `{"statuses": […], "rules": […], "violations": […]}`, field by field as docs/preferences.md shows.
    public func panelDescription() -> StoreValue {
        let suite = statuses?.suiteName
        let statusList: [StoreValue] = (statuses?.summary() ?? []).map { status in
            .object([
                "name": .string(status.name), "key": .string(status.key),
                "suite": suite.map(StoreValue.string) ?? .null,
                "value": Self.optional(status.value), "stored": Self.optional(status.stored),
                "inSync": .bool(status.inSync), "checked": status.checked.map(Self.time) ?? .null,
                "history": .array(
                    status.history.map { change in
                        .object([
                            "time": Self.time(change.time), "before": Self.optional(change.before),
                            "after": .string(change.after),
                        ])
                    }),
            ])
        }
        let ruleList: [StoreValue] = (rules?.states() ?? []).map { state in
            .object([
                "id": .string(state.rule.id), "label": .string(state.rule.label),
                "store": .string(state.rule.store.description), "path": .string(state.rule.path.description),
                "expected": state.rule.expected ?? .null, "allowed": state.rule.allowed.map(StoreValue.array) ?? .null,
                "current": state.current ?? .null, "ok": .bool(state.ok),
                "violations": .integer(Int64(state.violations)),
            ])
        }
        let violationList: [StoreValue] = (rules?.violations() ?? []).map { violation in
            .object([
                "rule": .string(violation.rule), "store": .string(violation.store.description),
                "path": .string(violation.path.description), "seq": .integer(Int64(violation.seq)),
                "time": Self.time(violation.time), "value": violation.value ?? .null,
                "message": .string(violation.message),
            ])
        }
        return .object(["statuses": .array(statusList), "rules": .array(ruleList), "violations": .array(violationList)])
    }

    private static func optional(_ text: String?) -> StoreValue {
        text.map(StoreValue.string) ?? .null
    }

    /// A time in the log's form.
    static func time(_ date: Date) -> StoreValue {
        .string(PreferenceTime.format(date))
    }
}
