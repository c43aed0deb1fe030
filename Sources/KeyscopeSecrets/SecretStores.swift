public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Picks the secret store that fits the platform and the machine.
///
/// ```swift
/// let secrets = try SecretStores.default(appID: "com.shop", directory: dataDirectory)
/// print(secrets.backendName)  // "keychain", "secret-service" or "file"
/// ```
public enum SecretStores {
    /// The best store for `appID` here:
    ///
    /// - Apple platforms: the Keychain (``KeychainSecretStore``).
    /// - Linux: the Secret Service (``SecretServiceStore``) when `DBUS_SESSION_BUS_ADDRESS` is set, its bus
    ///   answers, and a keyring daemon already owns `org.freedesktop.secrets` on it (a desktop session, or a server
    ///   that runs gnome-keyring on purpose). A keyring that is running but locked still counts: its calls then
    ///   throw `unavailable` until it is unlocked.
    /// - Everywhere else, and on Linux machines without a running keyring (headless servers, containers, CI):
    ///   a ``FileSecretStore`` in `directory` (`<directory>/<appID>.secrets.json`, mode 0600).
    ///
    /// - Throws: `badName` for an app ID no store accepts; `io` when the file store's directory cannot be created.
    public static func `default`(appID: String, directory: URL) throws(SecretStoreError) -> any SecretStore {
        #if canImport(Security)
        return try KeychainSecretStore(appID: appID)
        #else
        let address = getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) }
        return try `default`(appID: appID, directory: directory, sessionBusAddress: address)
        #endif
    }

    /// The Linux choice, with the session bus address given rather than read from the environment.
    static func `default`(
        appID: String,
        directory: URL,
        sessionBusAddress: String?
    ) throws(SecretStoreError) -> any SecretStore {
        #if canImport(CLibSecret)
        if let sessionBusAddress, SessionBusProbe.secretServiceAnswers(at: sessionBusAddress) {
            try SecretName.checkAppID(appID)
            return try SecretServiceStore(appID: appID)
        }
        #endif
        return try FileSecretStore(directory: directory, appID: appID)
    }
}
