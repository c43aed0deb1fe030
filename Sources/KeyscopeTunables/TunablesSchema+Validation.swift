public import KeyscopeCore

extension TunablesSchema {
    /// Checks `value` for `key` against the key's entry; a key the schema does not list passes unchecked.
    /// ```swift
    /// try schema.check(key: "toolbar_height", value: 66)
    /// // out_of_range: toolbar_height: 66 is not on a step of 4 from 24 (nearest allowed: 64 or 68)
    /// ```
    public func check(key: String, value: StoreValue) throws(TunablesError) {
        try entries[key]?.check(value, key: key)
    }

    /// Checks a whole new set of values: each one against its entry, and (``TunablesError/Code/missingKey``) no
    /// required key left out.
    public func check(values: [String: StoreValue]) throws(TunablesError) {
        for key in values.keys.sorted() { try check(key: key, value: values[key]!) }
        let missing = requiredKeys.subtracting(values.keys).sorted()
        if !missing.isEmpty {
            let list = missing.map { "\"\($0)\"" }.joined(separator: ", ")
            throw TunablesError(
                code: .missingKey,
                message: "\(list) \(missing.count == 1 ? "is" : "are") required by the schema but missing; "
                    + "include \(missing.count == 1 ? "it" : "them") (or mark the entry \"required\": false)",
                key: missing[0])
        }
    }
}

extension TunablesSchema.Entry {
    /// Checks one value: type first, then range, step and options.
    public func check(_ value: StoreValue, key: String) throws(TunablesError) {
        guard accepts(type: value) else {
            throw .typeMismatch(key, "expects \(type.phrase), got \(value.typeName) \(value.jsonText())")
        }
        if type.isNumeric { try checkNumber(value, key: key) }
        if let options, !options.contains(where: { Self.same(value, $0) }) {
            throw .outOfRange(key, "\(Self.show(value)) is not one of the options (allowed: \(allowedDescription))")
        }
    }

    /// In words, what the entry allows: `24 to 120 in steps of 4`, `one of "fast", "safe"`, `any color`.
    public var allowedDescription: String {
        if let options { return "one of " + Self.list(options) }
        var parts: [String] = []
        switch (min, max) {
        case let (low?, high?): parts.append("\(low.jsonText()) to \(high.jsonText())")
        case let (low?, nil): parts.append("at least \(low.jsonText())")
        case let (nil, high?): parts.append("at most \(high.jsonText())")
        case (nil, nil): parts.append("any \(type.rawValue)")
        }
        if let step { parts.append("in steps of \(step.jsonText())") }
        return parts.joined(separator: " ")
    }

    private func accepts(type value: StoreValue) -> Bool {
        switch (type, value) {
        case (.number, .number), (.number, .integer), (.integer, .integer), (.string, .string), (.bool, .bool),
            (.color, .color), (.url, .url):
            true
        default: false
        }
    }

    private func checkNumber(_ value: StoreValue, key: String) throws(TunablesError) {
        let allowed = "(allowed: \(allowedDescription))"
        if case .integer(let v) = value, type == .integer {
            // Integers are compared exactly: a Double would blur values beyond 2^53.
            if let low = min?.integerValue, v < low {
                throw .outOfRange(key, "\(v) is below the minimum \(low) \(allowed)")
            }
            if let high = max?.integerValue, v > high {
                throw .outOfRange(key, "\(v) is above the maximum \(high) \(allowed)")
            }
            if let step = step?.integerValue, !Self.onStep(v, base: min?.integerValue ?? 0, step: step) {
                throw .outOfRange(key, "\(v) is not on a step of \(step) from \(min?.integerValue ?? 0) \(allowed)")
            }
            return
        }
        let v = value.doubleValue!
        if v.isNaN, min != nil || max != nil || step != nil {
            throw .outOfRange(key, "nan is not a number within the range \(allowed)")
        }
        if let low = min?.doubleValue, v < low {
            throw .outOfRange(key, "\(Self.show(value)) is below the minimum \(min!.jsonText()) \(allowed)")
        }
        if let high = max?.doubleValue, v > high {
            throw .outOfRange(key, "\(Self.show(value)) is above the maximum \(max!.jsonText()) \(allowed)")
        }
        if let step = step?.doubleValue {
            let base = min?.doubleValue ?? 0
            let k = (v - base) / step
            // Within a relative 1e-9 of a whole number of steps: 0.3 is on a step of 0.1 despite binary rounding.
            guard k.isFinite, abs(k - k.rounded()) <= 1e-9 * Swift.max(1, abs(k)) else {
                let from = min?.jsonText() ?? "0"
                throw .outOfRange(
                    key, "\(Self.show(value)) is not on a step of \(self.step!.jsonText()) from \(from) \(allowed)")
            }
        }
    }

    /// Whether `v - base` is a multiple of `step`, without overflowing.
    private static func onStep(_ v: Int64, base: Int64, step: Int64) -> Bool {
        // Both remainders lie in (-step, step); a difference that overflows is larger than step, so not 0 or ±step.
        let (difference, overflow) = (v % step).subtractingReportingOverflow(base % step)
        return !overflow && difference % step == 0
    }

    /// Whether `value` is the option `option`: numbers by value (`1` is the option `1.0`), colors ignoring case.
    private static func same(_ value: StoreValue, _ option: StoreValue) -> Bool {
        switch (value, option) {
        case (.integer, .number), (.number, .integer): value.doubleValue == option.doubleValue
        case let (.color(a), .color(b)): a.hex.uppercased() == b.hex.uppercased()
        default: value == option
        }
    }

    static func show(_ value: StoreValue) -> String {
        switch value {
        case .string, .integer, .number, .bool, .null: value.jsonText()
        default: "\(value.typeName) \(value.jsonText())"
        }
    }

    private static func list(_ options: [StoreValue]) -> String {
        options.map { $0.jsonText() }.joined(separator: ", ")
    }
}

extension TunablesSchema.ValueType {
    /// What a value of the type looks like in JSON, for error messages.
    var phrase: String {
        switch self {
        case .number: "a number (such as 1.5 or 2)"
        case .integer: "an integer (a whole number such as 64, without a fraction)"
        case .string: "a string"
        case .bool: "true or false"
        case .color: ##"a color ({"$color": "#RRGGBB"} or {"$color": "#RRGGBBAA"})"##
        case .url: ##"a URL ({"$url": "https://…"}, absolute)"##
        }
    }
}
