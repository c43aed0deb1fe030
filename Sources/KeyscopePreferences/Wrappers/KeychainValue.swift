public import KeyscopeSecrets

/// One secret of any `Codable` type, kept as JSON bytes in a ``SecretStore`` (the keychain's role), with a
/// publisher of its values.
///
/// ```swift
/// struct Credentials: Codable, Equatable, Sendable { var user: String; var token: String }
///
/// KeychainValueDefaults.configure(store: secrets)           // once, at startup
/// final class Session: Sendable {
///     @KeychainValue("credentials", defaultValue: nil, service: "com.shop.api") var credentials: Credentials?
/// }
/// session.credentials = Credentials(user: "ann", token: "…")   // one item, account "credentials"
/// session.credentials = nil                                    // the default: the item is deleted
/// ```
/// - **Storage.** The item's account is `key`; its service is `service`, else ``KeychainValueDefaults/service``
///   (for the default store), else the store's `appID`. Its bytes are the value's JSON. An item that is not JSON of
///   the type but is UTF-8 text (a raw token stored by another tool) is read as that text, for string-like types.
/// - **Defaults.** Setting `defaultValue` deletes the item. Setting the value the store already holds does nothing
///   (no store round trip).
/// - **Caching.** The item is read once, on first use, then kept; `$name.refresh()` reads it again, and so does a
///   ``KeychainValueDefaults/didChangeNotification`` for it (posted by every wrapper's write).
/// - **Errors** never reach the app: a read that fails or does not decode gives the default and a `readFailed`
///   error, a failed write keeps the old value and reports `writeFailed`; no store configured is `unavailable`.
///   Events never hold the secret: they give the store's error, a coding path or a byte count.
/// - `accessibility` is for the Keychain only; other backends ignore it (see ``KeychainAccessibility``).
///
/// Thread-safe. Copies of the wrapper (and of `$name`) share one state. For a process-wide secret, keep the wrapper
/// in a constant (`static let token = KeychainValue("token", defaultValue: "")`): Swift 6 refuses a wrapped
/// `static var` outside a global actor.
@propertyWrapper
public struct KeychainValue<Value: Codable & Equatable & Sendable>: Sendable {
    let slot: SecretSlot<Value>

    /// The secret with account `key`, `defaultValue` when there is none.
    ///
    /// - Parameters:
    ///   - service: the item's service; `nil`: the default service (see above).
    ///   - store: where the item lives; `nil`: ``KeychainValueDefaults/store``, looked up on each read, so the
    ///     wrapper may be made before the store is configured.
    ///   - monitors: who hears errors and messages; `nil`: ``PreferencesMonitoring/monitors``.
    public init(
        _ key: String, defaultValue: Value, accessibility: KeychainAccessibility = .afterFirstUnlock,
        service: String? = nil, store: (any SecretStore)? = nil, monitors: [any PreferencesMonitor]? = nil
    ) {
        slot = SecretSlot(
            account: key, defaultValue: defaultValue, accessibility: accessibility, service: service, store: store,
            monitors: monitors)
    }

    /// `@KeychainValue("token", service: "com.shop.api") var token = ""`: the initial value is the default.
    public init(
        wrappedValue: Value, _ key: String, accessibility: KeychainAccessibility = .afterFirstUnlock,
        service: String? = nil, store: (any SecretStore)? = nil, monitors: [any PreferencesMonitor]? = nil
    ) {
        self.init(
            key, defaultValue: wrappedValue, accessibility: accessibility, service: service, store: store,
            monitors: monitors)
    }

    /// The secret, or the default. Setting it stores it (or deletes the item, for the default).
    public var wrappedValue: Value {
        get { slot.read() }
        nonmutating set { slot.write(newValue) }
    }

    /// `$name`: a handle with the value, its publisher and `refresh()`.
    public var projectedValue: PreferenceBinding<Value> {
        let slot = slot
        return PreferenceBinding(
            get: { slot.read() }, set: { slot.write($0) }, publisher: { slot.publisher() },
            refresh: { slot.reload() })
    }

    /// The item's account.
    public var key: String { slot.account }

    /// When the item may be read (the Keychain only).
    public var accessibility: KeychainAccessibility { slot.accessibility }
}
