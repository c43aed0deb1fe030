public import Foundation
public import KeyscopeCore

/// A rule about one key path of one store: the value there must be `expected`, or one of `allowed`.
///
/// ```swift
/// let rules = [
///     WatchRule(id: "cart-total", store: StoreID("app/memory")!, path: "cart.total", allowed: [0, 100]),
///     WatchRule(id: "status-writable", store: StoreID("app/userPrefs:com.shop.status")!,
///               path: "p_DataDirWritable", expected: "yes"),
/// ]
/// ```
/// Any store the hub sees can be watched, the mirrors of preference suites (`app/userPrefs:<suite>`) and secret
/// services included. Values compare by StoreValue equality (`3` is not `3.0`).
///
/// **A missing path reads as `null`.** The rule keeps only when it expects `null` or allows it: so an `expected`
/// rule flags a key that disappears (or never appeared), and an `allowed` rule does too unless its list holds
/// `null` (add `null` for keys that may be absent). A path into a store the hub does not know is missing too.
public struct WatchRule: Sendable, Hashable, Identifiable {
    /// What the value must be.
    public enum Condition: Sendable, Hashable {
        /// Exactly this value.
        case expected(StoreValue)
        /// One of these values.
        case allowed([StoreValue])
    }

    /// Unique among the rules of one ``WatchRules``; names the rule in violations and logs.
    public let id: String
    /// What the rule means, for people (the dashboard shows it).
    public let label: String
    public let store: StoreID
    public let path: StoreKeyPath
    public let condition: Condition

    /// A rule that the value at `path` of `store` is `expected`.
    public init(id: String, label: String? = nil, store: StoreID, path: StoreKeyPath, expected: StoreValue) {
        self.init(
            id: id, label: label ?? "\(path) is \(expected.jsonText(sortedKeys: true))", store: store, path: path,
            condition: .expected(expected))
    }

    /// A rule that the value at `path` of `store` is one of `allowed`.
    public init(id: String, label: String? = nil, store: StoreID, path: StoreKeyPath, allowed: [StoreValue]) {
        self.init(
            id: id, label: label ?? "\(path) is one of the allowed values", store: store, path: path,
            condition: .allowed(allowed))
    }

    public init(id: String, label: String, store: StoreID, path: StoreKeyPath, condition: Condition) {
        self.id = id
        self.label = label
        self.store = store
        self.path = path
        self.condition = condition
    }

    /// The expected value, for an `expected` rule.
    public var expected: StoreValue? {
        if case .expected(let value) = condition { return value }
        return nil
    }

    /// The allowed values, for an `allowed` rule.
    public var allowed: [StoreValue]? {
        if case .allowed(let values) = condition { return values }
        return nil
    }

    /// Whether `value` (`nil`: the path is missing, read as `null`) keeps the rule.
    public func isKept(by value: StoreValue?) -> Bool {
        let value = value ?? .null
        switch condition {
        case .expected(let expected): return value == expected
        case .allowed(let allowed): return allowed.contains(value)
        }
    }

    /// Why `value` breaks the rule: `cart.total is -5, allowed: 0, 100`, `p_Ready is missing, expected: "yes"`.
    public func message(for value: StoreValue?) -> String {
        let what = value.map { $0.jsonText(sortedKeys: true) } ?? "missing"
        switch condition {
        case .expected(let expected):
            return "\(path) is \(what), expected: \(expected.jsonText(sortedKeys: true))"
        case .allowed(let allowed):
            return
                "\(path) is \(what), allowed: \(allowed.map { $0.jsonText(sortedKeys: true) }.joined(separator: ", "))"
        }
    }
}

/// One rule's state: the value at its path now, whether it keeps the rule and how many violations it had.
public struct WatchRuleState: Sendable, Hashable {
    public let rule: WatchRule
    /// The value at the path as of the newest change evaluated; `nil` when missing (or not evaluated yet).
    public let current: StoreValue?
    /// Whether ``current`` keeps the rule (`true` before the first evaluation).
    public let ok: Bool
    /// How many violations the rule had since the rules started.
    public let violations: Int
    /// The seq of the newest change (or snapshot) evaluated for the rule; 0 before the first evaluation.
    public let seq: Int

    public init(rule: WatchRule, current: StoreValue?, ok: Bool, violations: Int, seq: Int) {
        self.rule = rule
        self.current = current
        self.ok = ok
        self.violations = violations
        self.seq = seq
    }
}

/// A change that broke a rule: a value that does not keep it, set by the change with ``seq``.
public struct WatchViolation: Sendable, Hashable {
    /// The rule's id.
    public let rule: String
    public let store: StoreID
    public let path: StoreKeyPath
    /// The seq of the change that broke the rule (of the snapshot, when the rule was found broken in one: at the
    /// start, or after the log's tail passed the rules' cursor).
    public let seq: Int
    /// When the hub logged that change (or when the snapshot was read).
    public let time: Date
    /// The value that broke the rule; `nil` when the path went missing.
    public let value: StoreValue?
    /// ``WatchRule/message(for:)``.
    public let message: String

    public init(
        rule: String, store: StoreID, path: StoreKeyPath, seq: Int, time: Date, value: StoreValue?, message: String
    ) {
        self.rule = rule
        self.store = store
        self.path = path
        self.seq = seq
        self.time = time
        self.value = value
        self.message = message
    }
}
