/// The rules every backend applies to app IDs, service and account names, so that a name one store accepts is
/// accepted by all of them.
enum SecretName {
    /// Throws ``SecretStoreError/Code/badName`` when `name` is empty or holds a control character (a newline, a tab,
    /// NUL, DEL…): such names cannot be shown in the dashboard or passed through the keyring's attributes safely.
    static func check(_ name: String, _ what: String) throws(SecretStoreError) {
        guard !name.isEmpty else {
            throw SecretStoreError(code: .badName, message: "the \(what) name is empty: give a non-empty name")
        }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw SecretStoreError(
                code: .badName,
                message: "the \(what) name \(name.debugDescription) holds a control character: use printable text"
            )
        }
    }

    /// ``check(_:_:)`` plus the rules of a file name: no `/`, not `.` or `..` (the app ID names the file store's
    /// file).
    static func checkAppID(_ appID: String) throws(SecretStoreError) {
        try check(appID, "app ID")
        guard !appID.contains("/"), appID != ".", appID != ".." else {
            throw SecretStoreError(
                code: .badName,
                message: "the app ID \(appID.debugDescription) cannot name a file: use a reverse-DNS name like com.shop"
            )
        }
    }
}
