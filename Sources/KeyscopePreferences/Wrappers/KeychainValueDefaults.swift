public import Foundation
public import KeyscopeSecrets
import Synchronization

/// The process-wide secret store (and default service) of every ``KeychainValue`` made without its own `store`.
///
/// ```swift
/// // once, at startup, before the first KeychainValue is read
/// KeychainValueDefaults.configure(store: try FileSecretStore(directory: dataDirectory, appID: "com.shop"))
/// ```
/// Configuration happens once: the first call wins and later calls are ignored (they return `false`). Until then
/// a `KeychainValue` without a store of its own reads its default and reports `unavailable` to its monitors. The
/// default service is `service` when given, else the store's `appID`.
public enum KeychainValueDefaults {
    private struct Configuration {
        var store: (any SecretStore)?
        var service: String?
    }

    private static let configuration = Mutex(Configuration())

    /// Posted after a ``KeychainValue`` wrote or removed an item, with `service` and `account` in `userInfo`: every
    /// other wrapper of that item in the process re-reads it. Post it after editing a secret by other means (the
    /// inspector's write-through) to reach the wrappers at once.
    public static let didChangeNotification = Notification.Name("KeyscopeKeychainValueDidChangeNotification")

    /// Sets the default store and service, if they were never set. Returns whether this call set them.
    @discardableResult
    public static func configure(store: any SecretStore, service: String? = nil) -> Bool {
        configuration.withLock { configuration in
            guard configuration.store == nil else { return false }
            configuration.store = store
            configuration.service = service
            return true
        }
    }

    /// The default store, once configured.
    public static var store: (any SecretStore)? { configuration.withLock { $0.store } }

    /// The default service: the configured one, else the default store's `appID`.
    public static var service: String? {
        configuration.withLock { $0.service ?? $0.store?.appID }
    }
}
