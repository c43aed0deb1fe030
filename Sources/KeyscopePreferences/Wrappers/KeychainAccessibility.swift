/// When a keychain item may be read, mirroring the Keychain's `kSecAttrAccessible…` values.
///
/// ```swift
/// @KeychainValue("token", defaultValue: "", accessibility: .afterFirstUnlockThisDeviceOnly) var token: String
/// ```
/// Only the Keychain (Apple platforms) enforces it. Other backends (the 0600 file store, the Secret Service on
/// Linux) ignore it: their items are readable whenever the file or the keyring is. ``KeychainValue`` keeps it with
/// the wrapper for the backend that honours it.
public enum KeychainAccessibility: String, Sendable, Hashable, CaseIterable {
    /// `kSecAttrAccessibleWhenUnlocked`: only while the device is unlocked; migrates to new devices.
    case whenUnlocked
    /// `kSecAttrAccessibleAfterFirstUnlock`: after the first unlock until restart (background work); migrates.
    case afterFirstUnlock
    /// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`: only while unlocked and only while a passcode is set;
    /// never leaves the device.
    case whenPasscodeSetThisDeviceOnly
    /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`: like ``whenUnlocked``, never leaves the device.
    case whenUnlockedThisDeviceOnly
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: like ``afterFirstUnlock``, never leaves the device.
    case afterFirstUnlockThisDeviceOnly

    /// The Keychain attribute's name (`kSecAttrAccessibleAfterFirstUnlock`…).
    public var keychainAttributeName: String {
        "kSecAttrAccessible" + rawValue.prefix(1).uppercased() + rawValue.dropFirst()
    }
}
