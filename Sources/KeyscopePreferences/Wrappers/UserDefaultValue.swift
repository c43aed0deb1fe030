public import Foundation

/// One preference of any `Codable` type, kept in a UserDefaults suite as JSON text, with a publisher of its values.
///
/// ```swift
/// enum Theme: String, Codable, Sendable { case light, dark }
/// struct Layout: Codable, Sendable { var columns = 2; var compact = false }
///
/// final class Settings: Sendable {
///     @UserDefaultValue("theme", defaultValue: Theme.light, suite: "com.shop") var theme: Theme
///     @UserDefaultValue("layout", suite: "com.shop") var layout = Layout()
/// }
/// settings.theme = .dark                                      // stores "\"dark\"" and saves the suite
/// let watch = settings.$theme.publisher.sink { apply($0) }    // .dark now, then every change
/// settings.theme = .light                                     // the default: the key is removed
/// ```
/// - **Storage.** The value is stored as its JSON text (a `String`, keys sorted), so it reads well in the plist,
///   in `defaults read` and in the inspector's Preferences panel, and so that equal values are stored alike.
/// - **Old data.** A stored value that is not JSON of the type (a plain `String`, `Int`, `Bool`, `Date`, array or
///   dictionary written by older code or the `defaults` tool) is read as the JSON it would be: `"dark"` (a plain
///   string) reads as `Theme.dark`. The next write stores JSON. Monitors get a `readPlainValue` message.
/// - **Defaults.** Setting a value that encodes like `defaultValue` removes the key, so the suite only holds what
///   differs from the defaults.
/// - **Saving.** Every write is followed by `synchronize()` where Foundation is corelibs (Linux, Windows), which
///   persists nothing otherwise; Apple's Foundation saves by itself.
/// - **Errors** never reach the app: a stored value that does not decode reads as the default and the monitors get
///   a `readFailed` error (once per bad value); a failed write leaves the stored value and reports `writeFailed`.
///   Monitors are `monitors` when given, else ``PreferencesMonitoring/monitors``.
/// - **Changes made elsewhere** reach the publisher (``PreferenceBinding/publisher``, through `$name`):
///   - at once when `UserDefaults.didChangeNotification` is posted, on the posting thread. Apple's Foundation posts
///     it for every change made in this process through any `UserDefaults` instance. corelibs (Linux) posts it
///     only from `setPersistentDomain(_:forName:)` and `removePersistentDomain(forName:)`, not for
///     `set(_:forKey:)` or `removeObject(forKey:)`: code that edits a suite on Linux (the inspector's
///     write-through, say) should post it after its edit so that every wrapper sees the edit at once;
///   - otherwise at the next `$name.refresh()` (which first synchronises, taking in what other processes saved),
///     the next write through this wrapper, or the next subscription. Reading `name` always returns the stored
///     value: corelibs shares one in-memory copy of a suite among all its instances in a process.
///
/// Thread-safe. Copies of the wrapper (and of `$name`) share one state. Swift 6 refuses a wrapped `static var`
/// outside a global actor (its storage counts as shared mutable state); keep the wrapper itself in a constant
/// instead: `static let theme = UserDefaultValue("theme", defaultValue: Theme.light)`, then `theme.wrappedValue`.
@propertyWrapper
public struct UserDefaultValue<Value: Codable & Sendable>: Sendable {
    let slot: UserDefaultsSlot<Value>

    /// The preference `key` of `suite` (`nil`: the standard defaults), `defaultValue` when it is missing.
    public init(
        _ key: String, defaultValue: Value, suite: String? = nil, monitors: [any PreferencesMonitor]? = nil
    ) {
        // No suite: the standard defaults. A suite name UserDefaults refuses: nil (reads give the default, writes
        // report `unavailable`), never a silent fallback to another suite.
        let defaults: UserDefaults? = suite.map { UserDefaults(suiteName: $0) } ?? UserDefaults.standard
        slot = UserDefaultsSlot(
            key: key, defaultValue: defaultValue, defaults: defaults, container: suite ?? "standard",
            monitors: monitors)
    }

    /// The preference `key` of `defaults`, `defaultValue` when it is missing. `container` names the suite in
    /// monitor events.
    public init(
        _ key: String, defaultValue: Value, defaults: UserDefaults, container: String = "custom",
        monitors: [any PreferencesMonitor]? = nil
    ) {
        slot = UserDefaultsSlot(
            key: key, defaultValue: defaultValue, defaults: defaults, container: container, monitors: monitors)
    }

    /// `@UserDefaultValue("layout", suite: "com.shop") var layout = Layout()`: the initial value is the default.
    public init(
        wrappedValue: Value, _ key: String, suite: String? = nil, monitors: [any PreferencesMonitor]? = nil
    ) {
        self.init(key, defaultValue: wrappedValue, suite: suite, monitors: monitors)
    }

    /// The stored value, or the default. Setting it stores it (or removes the key, for the default).
    public var wrappedValue: Value {
        get { slot.read() }
        nonmutating set { slot.write(newValue) }
    }

    /// `$name`: a handle with the value, its publisher and `refresh()`.
    public var projectedValue: PreferenceBinding<Value> {
        let slot = slot
        return PreferenceBinding(
            get: { slot.read() }, set: { slot.write($0) }, publisher: { slot.publisher() },
            refresh: { slot.reload(synchronizing: true) })
    }

    /// The preference key.
    public var key: String { slot.key }

    /// The value used when the key is missing or does not decode.
    public var defaultValue: Value { slot.defaultValue }
}
