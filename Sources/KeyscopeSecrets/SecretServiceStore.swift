#if canImport(CLibSecret)
import CLibSecret
public import Foundation
import Synchronization

/// libsecret keeps one Secret Service proxy per process; every store's calls go through this lock, one at a time.
private let libsecretCalls = Mutex(())

/// Secrets in the Secret Service (gnome-keyring, KeePassXC…: the Linux desktop keychain), through libsecret.
///
/// ```swift
/// let secrets = try SecretServiceStore(appID: "com.shop")
/// try secrets.write(Data("s3cret".utf8), service: "com.shop.api", account: "token")
/// let token = try secrets.read(service: "com.shop.api", account: "token")
/// ```
///
/// - Items use the schema `dev.keyscope.Secret` with the attributes `app`, `service`, `account` and `encoding`,
///   live in the default collection, and are labelled `"<service> / <account>"` (what Seahorse shows).
/// - Values are stored as text (`text/plain`) when they are UTF-8 without NUL bytes; any other bytes are stored as
///   base64 with `encoding=base64`, so any `Data` round-trips.
/// - Searches unlock what they find (a desktop keyring may ask its user); a keyring that stays locked, no session
///   bus or no Secret Service on it make calls throw `unavailable`; other failures are `io`.
/// - ``SecretItem/modified`` is the item's modification time as the service keeps it (whole seconds).
/// - libsecret's sync calls are serialised in this process; the service itself keeps other processes' writes
///   consistent, and every call asks the service, so they are seen at once.
/// - The session bus is the one `DBUS_SESSION_BUS_ADDRESS` names when the process first connects: libsecret and
///   GDBus keep that connection for the life of the process. It is told not to end the process when the bus goes
///   away (calls then throw `unavailable`).
public final class SecretServiceStore: SecretStore {
    public let backendName = "secret-service"
    public let appID: String

    /// A store of `appID`'s items. Nothing is contacted until the first call.
    ///
    /// - Throws: `badName` when `appID` is empty or holds control characters.
    public init(appID: String) throws(SecretStoreError) {
        try SecretName.check(appID, "app ID")
        self.appID = appID
    }

    public func services() throws(SecretStoreError) -> [String] {
        let found = try call("list the services of \(appID)") { service, operation throws(SecretStoreError) in
            try LibSecret.search(service, ["app": appID], secrets: false, while: operation)
        }
        return Set(found.compactMap { $0.attributes["service"] }).sorted()
    }

    public func items(service: String) throws(SecretStoreError) -> [SecretItem] {
        try SecretName.check(service, "service")
        let found = try search(service: service, secrets: true, "list the items of \(service)")
        var newest: [String: LibSecret.Found] = [:]
        for item in found {
            guard let account = item.attributes["account"] else { continue }
            if let kept = newest[account], (kept.modified ?? .distantPast) > (item.modified ?? .distantPast) {
                continue
            }
            newest[account] = item
        }
        var items: [SecretItem] = []
        for (account, item) in newest.sorted(by: { $0.key < $1.key }) {
            let value = try Self.decode(item, "read \(service) / \(account)")
            items.append(SecretItem(service: service, account: account, value: value, modified: item.modified))
        }
        return items
    }

    public func read(service: String, account: String) throws(SecretStoreError) -> Data? {
        try SecretName.check(service, "service")
        try SecretName.check(account, "account")
        let operation = "read \(service) / \(account)"
        let found = try search(service: service, account: account, secrets: true, operation)
        // Two items only after a write stopped between storing one encoding and clearing the other: the newer wins.
        guard let item = found.max(by: { ($0.modified ?? .distantPast) < ($1.modified ?? .distantPast) }) else {
            return nil
        }
        return try Self.decode(item, operation)
    }

    public func write(_ value: Data, service: String, account: String) throws(SecretStoreError) {
        try SecretName.check(service, "service")
        try SecretName.check(account, "account")
        let (secret, encoding, other) = Self.encode(value)
        try call("write \(service) / \(account)") { secretService, operation throws(SecretStoreError) in
            var named = attributes(service, account)
            named["encoding"] = encoding
            try LibSecret.store(
                secretService,
                named,
                label: "\(service) / \(account)",
                secret: secret,
                contentType: "text/plain",
                while: operation
            )
            // The service replaces an item only when every attribute matches: drop the item of the other encoding.
            named["encoding"] = other
            _ = try LibSecret.clear(secretService, named, while: operation)
        }
    }

    @discardableResult
    public func delete(service: String, account: String) throws(SecretStoreError) -> Bool {
        try SecretName.check(service, "service")
        try SecretName.check(account, "account")
        return try call("delete \(service) / \(account)") { secretService, operation throws(SecretStoreError) in
            try LibSecret.clear(secretService, attributes(service, account), while: operation)
        }
    }

    /// Drops libsecret's shared connection so that the next call connects to the session bus named then (tests
    /// that start a private bus call this before stopping it).
    static func disconnect() {
        libsecretCalls.withLock { _ in LibSecret.disconnect() }
    }

    /// Every item of this app in `service` (of `account` only, when given), as the Secret Service returns them:
    /// several for one account only after an interrupted write.
    func search(
        service: String,
        account: String? = nil,
        secrets: Bool,
        _ operation: String
    ) throws(SecretStoreError) -> [LibSecret.Found] {
        var attributes = ["app": appID, "service": service]
        attributes["account"] = account
        return try call(operation) { secretService, operation throws(SecretStoreError) in
            try LibSecret.search(secretService, attributes, secrets: secrets, while: operation)
        }
    }

    private func attributes(_ service: String, _ account: String) -> [String: String] {
        ["app": appID, "service": service, "account": account]
    }

    /// Runs `body` under the process-wide lock with a connected service; `operation` names the call in errors.
    private func call<Result>(
        _ operation: String,
        _ body: (UnsafeMutablePointer<SecretService>, String) throws(SecretStoreError) -> Result
    ) throws(SecretStoreError) -> Result {
        try libsecretCalls.withLock { _ throws(SecretStoreError) in
            let service = try LibSecret.connect()
            defer { LibSecret.release(service) }
            return try body(service, operation)
        }
    }

    /// The bytes to store, their `encoding`, and the other encoding (whose item a write removes).
    static func encode(_ value: Data) -> (secret: Data, encoding: String, other: String) {
        if !value.contains(0), String(validating: value, as: UTF8.self) != nil {
            return (value, "text", "base64")
        }
        return (Data(value.base64EncodedString().utf8), "base64", "text")
    }

    static func decode(_ item: LibSecret.Found, _ operation: String) throws(SecretStoreError) -> Data {
        let secret = item.secret ?? Data()
        guard item.attributes["encoding"] == "base64" else { return secret }
        guard let text = String(validating: secret, as: UTF8.self), let value = Data(base64Encoded: text) else {
            throw SecretStoreError(
                code: .io,
                message: "could not \(operation): the item says encoding=base64 but its secret is not base64; "
                    + "delete the item and write it again"
            )
        }
        return value
    }
}
#endif
