#if canImport(Security)
public import Foundation
public import Security

/// Secrets in the Keychain (Apple platforms): generic passwords whose service is `<appID>/<service>` and whose
/// account is the account.
///
/// ```swift
/// let secrets = try KeychainSecretStore(appID: "com.shop")
/// try secrets.write(Data("s3cret".utf8), service: "com.shop.api", account: "token")
/// ```
///
/// - `accessGroup` shares items between apps of one team (`kSecAttrAccessGroup`); `nil` uses the app's default.
/// - `accessibility` is passed through as `kSecAttrAccessible` on every write (default: after first unlock, so
///   background work can read secrets).
/// - A locked keychain or one the process may not use gives `unavailable`; other failures are `io`.
public final class KeychainSecretStore: SecretStore {
    public let backendName = "keychain"
    public let appID: String
    public let accessGroup: String?
    /// `kSecAttrAccessible`, kept as a String so that the store is Sendable.
    private let accessibility: String

    public init(
        appID: String,
        accessGroup: String? = nil,
        accessibility: CFString = kSecAttrAccessibleAfterFirstUnlock
    ) throws(SecretStoreError) {
        try SecretName.check(appID, "app ID")
        self.appID = appID
        self.accessGroup = accessGroup
        self.accessibility = accessibility as String
    }

    public func services() throws(SecretStoreError) -> [String] {
        let prefix = appID + "/"
        let services = try attributesOfAll([:], "list the services of \(appID)").compactMap { item -> String? in
            guard let full = item[kSecAttrService as String] as? String, full.hasPrefix(prefix) else { return nil }
            return String(full.dropFirst(prefix.count))
        }
        return Set(services).sorted()
    }

    public func items(service: String) throws(SecretStoreError) -> [SecretItem] {
        try SecretName.check(service, "service")
        let found = try attributesOfAll(
            [kSecAttrService as String: qualified(service)],
            "list the items of \(service)"
        )
        var items: [SecretItem] = []
        for attributes in found {
            guard let account = attributes[kSecAttrAccount as String] as? String else { continue }
            // Data cannot be returned for many items at once from every keychain: read each one.
            guard let value = try read(service: service, account: account) else { continue }
            let modified = attributes[kSecAttrModificationDate as String] as? Date
            items.append(SecretItem(service: service, account: account, value: value, modified: modified))
        }
        return items.sorted { $0.account < $1.account }
    }

    public func read(service: String, account: String) throws(SecretStoreError) -> Data? {
        try SecretName.check(service, "service")
        try SecretName.check(account, "account")
        var query = baseQuery(service, account)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        try check(status, "read \(service) / \(account)")
        return result as? Data
    }

    public func write(_ value: Data, service: String, account: String) throws(SecretStoreError) {
        try SecretName.check(service, "service")
        try SecretName.check(account, "account")
        let operation = "write \(service) / \(account)"
        let query = baseQuery(service, account)
        let changes: [String: Any] = [
            kSecValueData as String: value,
            kSecAttrAccessible as String: accessibility,
        ]
        let status = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
        guard status == errSecItemNotFound else { return try check(status, operation) }
        let added = query.merging(changes) { _, new in new }
        try check(SecItemAdd(added as CFDictionary, nil), operation)
    }

    @discardableResult
    public func delete(service: String, account: String) throws(SecretStoreError) -> Bool {
        try SecretName.check(service, "service")
        try SecretName.check(account, "account")
        let status = SecItemDelete(baseQuery(service, account) as CFDictionary)
        if status == errSecItemNotFound { return false }
        try check(status, "delete \(service) / \(account)")
        return true
    }

    private func qualified(_ service: String) -> String { appID + "/" + service }

    private func baseQuery(_ service: String, _ account: String) -> [String: Any] {
        var query = commonQuery()
        query[kSecAttrService as String] = qualified(service)
        query[kSecAttrAccount as String] = account
        return query
    }

    private func commonQuery() -> [String: Any] {
        var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    /// The attributes (no data) of every generic password matching `extra`.
    private func attributesOfAll(
        _ extra: [String: Any],
        _ operation: String
    ) throws(SecretStoreError) -> [[String: Any]] {
        var query = commonQuery().merging(extra) { _, new in new }
        query[kSecReturnAttributes as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        try check(status, operation)
        return result as? [[String: Any]] ?? []
    }

    /// The one place an `OSStatus` becomes a ``SecretStoreError``.
    private func check(_ status: OSStatus, _ operation: String) throws(SecretStoreError) {
        guard status != errSecSuccess else { return }
        let reason = SecCopyErrorMessageString(status, nil) as String? ?? "OSStatus \(status)"
        switch status {
        case errSecInteractionNotAllowed, errSecNotAvailable, errSecNoSuchKeychain, errSecMissingEntitlement:
            throw SecretStoreError(
                code: .unavailable,
                message: "could not \(operation): the keychain cannot be used now (\(reason)); unlock the device "
                    + "or give the app the keychain entitlement, then retry"
            )
        default:
            throw SecretStoreError(code: .io, message: "could not \(operation): \(reason)")
        }
    }
}
#endif
