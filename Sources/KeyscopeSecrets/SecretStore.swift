public import Foundation

/// One secret: the service it belongs to, its account (the key), its bytes, and when it last changed (if known).
public struct SecretItem: Sendable, Hashable {
    public var service: String
    public var account: String
    public var value: Data
    public var modified: Date?

    public init(service: String, account: String, value: Data, modified: Date? = nil) {
        self.service = service
        self.account = account
        self.value = value
        self.modified = modified
    }
}

/// A place where an app keeps its secrets (the keychain's role), addressed by service and account.
///
/// Backends: ``FileSecretStore`` (headless servers: one 0600 file, atomic writes), `SecretServiceStore` (the
/// Linux desktop keychain through libsecret), `KeychainSecretStore` (Apple platforms), and ``MemorySecretStore``
/// (tests). ``SecretStores/default(appID:directory:)`` picks the one that fits the machine. Every backend only sees
/// the items of its own app (`appID`), so scanning never lists another program's secrets. Service and account names
/// must be non-empty and free of control characters in every backend (`badName` otherwise).
///
/// ```swift
/// let secrets: any SecretStore = try FileSecretStore(directory: dataDirectory, appID: "com.shop")
/// try secrets.write(Data("s3cret".utf8), service: "com.shop.api", account: "token")
/// let token = try secrets.read(service: "com.shop.api", account: "token")
/// ```
/// All methods are safe to call from any thread. Errors say what failed and what to do.
public protocol SecretStore: Sendable {
    /// A short name for the backend, shown in the dashboard: `file`, `secret-service`, `keychain`.
    var backendName: String { get }
    /// The app whose items this store sees.
    var appID: String { get }

    /// Every service that holds at least one item of this app, sorted.
    func services() throws(SecretStoreError) -> [String]
    /// Every item of `service`, sorted by account.
    func items(service: String) throws(SecretStoreError) -> [SecretItem]
    /// The value of one item, or `nil` when there is none.
    func read(service: String, account: String) throws(SecretStoreError) -> Data?
    /// Creates or replaces one item, durably.
    func write(_ value: Data, service: String, account: String) throws(SecretStoreError)
    /// Deletes one item; `false` when there was none.
    @discardableResult
    func delete(service: String, account: String) throws(SecretStoreError) -> Bool
}

/// Why a secret store refused or failed. A struct over codes, so that codes can be added later.
public struct SecretStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The backend cannot be reached (no session bus, no keyring daemon, a locked keyring).
        public static let unavailable = Code(rawValue: "unavailable")
        /// A service or account name the store does not accept (empty, control characters, `/` for files).
        public static let badName = Code(rawValue: "bad_name")
        /// Reading or writing the backend failed (I/O error, a corrupt file, a D-Bus error).
        public static let io = Code(rawValue: "io")
    }

    public let code: Code
    public let message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
