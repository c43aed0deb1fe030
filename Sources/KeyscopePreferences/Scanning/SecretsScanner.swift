import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeSecrets

/// Reads and writes a ``KeyscopeSecrets/SecretStore`` for preference scanning, and decides how each secret is shown.
///
/// A secret's bytes are shown as a UTF-8 string when they are valid UTF-8 (type `string`), as base64 otherwise (type
/// `data`). Unless reveal is on, the shown value is the placeholder ``redacted(length:)`` (`"•••• (12)"`), and the
/// real bytes never leave this type and the repository's memory: no mirror, frame, log line or error message holds
/// them.
struct SecretsScanner: Sendable {
    let store: any SecretStore

    /// One secret as scanning shows it.
    struct Shown: Sendable, Hashable {
        var value: StoreValue
        var type: PreferenceValueType
        var length: Int
        var redacted: Bool
    }

    /// `"•••• (N)"`, the placeholder of a secret of `length` bytes.
    static func redacted(length: Int) -> StoreValue {
        .string("•••• (\(length))")
    }

    /// How a secret with these bytes is shown.
    static func shown(_ bytes: Data, reveal: Bool) -> Shown {
        let text = String(validating: bytes, as: UTF8.self)
        let type: PreferenceValueType = text == nil ? .data : .string
        let value: StoreValue =
            reveal ? .string(text ?? bytes.base64EncodedString()) : redacted(length: bytes.count)
        return Shown(value: value, type: type, length: bytes.count, redacted: !reveal)
    }

    /// The bytes an edit's `value` stands for: a string's UTF-8 bytes, or for a `data` secret the bytes its base64
    /// string encodes.
    static func bytes(from value: StoreValue, type: PreferenceValueType?, account: String)
        throws(PreferenceSourceError) -> Data
    {
        guard case .string(let text) = value else {
            throw .typeMismatch(
                "secret \(PreferenceNames.quoted(account)) takes a string (base64 for a data secret), not "
                    + value.typeName)
        }
        guard type == .data else { return Data(text.utf8) }
        guard let data = Data(base64Encoded: text) else {
            throw .typeMismatch("secret \(PreferenceNames.quoted(account)) holds bytes: send them as base64")
        }
        return data
    }

    /// The services that hold items of this app, sorted.
    func services() throws(PreferenceSourceError) -> [String] {
        do {
            return try store.services()
        } catch {
            throw Self.wrap(error, "list the services of the \(store.backendName) secret store")
        }
    }

    /// Every item of `service`, by account.
    func items(service: String) throws(PreferenceSourceError) -> [SecretItem] {
        do {
            return try store.items(service: service)
        } catch {
            throw Self.wrap(error, "read service \(PreferenceNames.quoted(service))")
        }
    }

    func read(service: String, account: String) throws(PreferenceSourceError) -> Data? {
        do {
            return try store.read(service: service, account: account)
        } catch {
            throw Self.wrap(error, "read \(PreferenceNames.quoted(account)) of \(PreferenceNames.quoted(service))")
        }
    }

    /// Writes `value` (or deletes the item when `nil`).
    func write(_ value: Data?, service: String, account: String) throws(PreferenceSourceError) {
        let what = "\(PreferenceNames.quoted(account)) of \(PreferenceNames.quoted(service))"
        do {
            if let value {
                try store.write(value, service: service, account: account)
            } else {
                try store.delete(service: service, account: account)
            }
        } catch {
            throw Self.wrap(error, (value == nil ? "delete " : "write ") + what)
        }
    }

    /// The store's refusal, without any value (its message names the service and account at most).
    private static func wrap(_ error: SecretStoreError, _ action: String) -> PreferenceSourceError {
        .backend("the secret store could not \(action): \(error)")
    }
}
