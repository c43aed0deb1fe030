public import Foundation
public import KeyscopeCore

/// Typed reads for the code that uses the constants: each returns `default` when the key is missing or its value
/// cannot be read as that type, so a bad edit never crashes a reader (and the schema, when there is one, refuses
/// such edits before they reach the store).
///
/// ```swift
/// let height = tunables.double("toolbar_height", default: 44)   // 48 (an integer) reads as 48.0
/// let retries = tunables.int("retries", default: 3)             // 5.0 reads as 5; 2.5 gives the default, 3
/// ```
extension Tunables {
    /// The number at `key`: a `.number`, or an `.integer` converted; otherwise `default`.
    public func double(_ key: String, default defaultValue: Double) -> Double {
        get(key)?.doubleValue ?? defaultValue
    }

    /// The whole number at `key`: an `.integer`, or a `.number` with no fractional part that fits in `Int`
    /// (`5.0` reads as `5`). Anything else, `2.5`, NaN or `1e300` included, gives `default`: a fraction is never
    /// rounded away silently.
    public func int(_ key: String, default defaultValue: Int) -> Int {
        switch get(key) {
        case .integer(let i)?: Int(exactly: i) ?? defaultValue
        case .number(let d)?: Int(exactly: d) ?? defaultValue
        default: defaultValue
        }
    }

    /// The string at `key`, or `default`.
    public func string(_ key: String, default defaultValue: String) -> String {
        get(key)?.stringValue ?? defaultValue
    }

    /// The boolean at `key`, or `default` (strings such as `"true"` are not booleans).
    public func bool(_ key: String, default defaultValue: Bool) -> Bool {
        get(key)?.boolValue ?? defaultValue
    }

    /// The color at `key` (`{"$color": "#RRGGBB"}`), or `default`.
    public func color(_ key: String, default defaultValue: StoreColor) -> StoreColor {
        if case .color(let color)? = get(key) { return color }
        return defaultValue
    }

    /// The URL at `key` (`{"$url": "https://…"}`), or `default`.
    public func url(_ key: String, default defaultValue: URL) -> URL {
        if case .url(let url)? = get(key) { return url }
        return defaultValue
    }
}
