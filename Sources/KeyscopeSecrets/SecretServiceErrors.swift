#if canImport(CLibSecret)
import CLibSecret

/// The one place where a libsecret/GLib `GError` becomes a ``SecretStoreError``.
///
/// `unavailable`: no session bus, no Secret Service on it, a locked keyring, no default collection, a connection
/// that closed or timed out; anything that happened while connecting. `io`: everything else (the service answered,
/// but refused or failed).
enum SecretServiceErrors {
    /// The GError domains the mapping tells apart (so that it can be tested without building GErrors).
    enum Domain: Sendable, Hashable, CustomStringConvertible {
        case dbus
        case secret
        case io
        case other(String)

        /// The quark's name, as GLib spells it in its own messages.
        var description: String {
            switch self {
            case .dbus: "g-dbus-error-quark"
            case .secret: "secret-error"
            case .io: "g-io-error-quark"
            case .other(let name): name
            }
        }
    }

    /// What `error` means, for a failure while doing `operation` ("read com.shop.api / token"); frees `error`.
    /// `connecting`: the failure happened while reaching the service, so it is `unavailable` whatever it says.
    static func take(
        _ error: UnsafeMutablePointer<GError>?,
        while operation: String,
        connecting: Bool = false
    ) -> SecretStoreError {
        guard let error else {
            return SecretStoreError(code: .io, message: "could not \(operation): libsecret failed without saying why")
        }
        defer { g_error_free(error) }
        let quark = error.pointee.domain
        let domain: Domain
        if quark == g_dbus_error_quark() {
            domain = .dbus
        } else if quark == secret_error_get_quark() {
            domain = .secret
        } else if quark == g_io_error_quark() {
            domain = .io
        } else {
            domain = .other(g_quark_to_string(quark).map { String(cString: $0) } ?? "unknown")
        }
        let message = error.pointee.message.map { String(cString: $0) } ?? "no message"
        return map(domain: domain, code: error.pointee.code, message: message, while: operation, connecting: connecting)
    }

    /// The mapping itself, on plain values.
    static func map(
        domain: Domain,
        code: Int32,
        message: String,
        while operation: String,
        connecting: Bool = false
    ) -> SecretStoreError {
        switch domain {
        case .secret where code == Int32(SECRET_ERROR_IS_LOCKED.rawValue):
            return SecretStoreError(
                code: .unavailable,
                message: "could not \(operation): the keyring is locked (\(message)). Unlock it (log in to the "
                    + "desktop session, or run `gnome-keyring-daemon --unlock`) and retry"
            )
        case .secret where code == Int32(SECRET_ERROR_NO_SUCH_OBJECT.rawValue):
            return SecretStoreError(
                code: .unavailable,
                message: "could not \(operation): the keyring has no default collection (\(message)). Create one "
                    + "(for example with Seahorse, or by unlocking gnome-keyring once) and retry"
            )
        case .dbus where unreachableDBusCodes.contains(code), .io where unreachableIOCodes.contains(code):
            return unreachable(operation, message)
        default:
            if connecting { return unreachable(operation, message) }
            return SecretStoreError(code: .io, message: "could not \(operation): \(message) (\(domain) error \(code))")
        }
    }

    private static func unreachable(_ operation: String, _ message: String) -> SecretStoreError {
        SecretStoreError(
            code: .unavailable,
            message: "could not \(operation): the Secret Service cannot be reached (\(message)). Run a session bus "
                + "(DBUS_SESSION_BUS_ADDRESS) with a keyring daemon such as gnome-keyring, or keep the secrets in "
                + "a FileSecretStore (SecretStores.default falls back to one)"
        )
    }

    /// D-Bus errors that mean "nobody (usable) is there": no owner, no bus, no reply, a failed activation.
    private static let unreachableDBusCodes: Set<Int32> = Set(
        [
            G_DBUS_ERROR_SERVICE_UNKNOWN, G_DBUS_ERROR_NAME_HAS_NO_OWNER, G_DBUS_ERROR_NO_REPLY,
            G_DBUS_ERROR_IO_ERROR, G_DBUS_ERROR_BAD_ADDRESS, G_DBUS_ERROR_NO_SERVER, G_DBUS_ERROR_TIMEOUT,
            G_DBUS_ERROR_NO_NETWORK, G_DBUS_ERROR_DISCONNECTED, G_DBUS_ERROR_TIMED_OUT,
            G_DBUS_ERROR_SPAWN_EXEC_FAILED, G_DBUS_ERROR_SPAWN_FORK_FAILED, G_DBUS_ERROR_SPAWN_CHILD_EXITED,
            G_DBUS_ERROR_SPAWN_CHILD_SIGNALED, G_DBUS_ERROR_SPAWN_FAILED, G_DBUS_ERROR_SPAWN_SETUP_FAILED,
            G_DBUS_ERROR_SPAWN_CONFIG_INVALID, G_DBUS_ERROR_SPAWN_SERVICE_INVALID,
            G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND, G_DBUS_ERROR_SPAWN_PERMISSIONS_INVALID,
            G_DBUS_ERROR_SPAWN_FILE_INVALID, G_DBUS_ERROR_SPAWN_NO_MEMORY,
        ].map { Int32($0.rawValue) }
    )

    /// I/O errors of a bus socket that is missing, refused, closed or silent.
    private static let unreachableIOCodes: Set<Int32> = Set(
        [
            G_IO_ERROR_NOT_FOUND, G_IO_ERROR_CONNECTION_REFUSED, G_IO_ERROR_CLOSED, G_IO_ERROR_CONNECTION_CLOSED,
            G_IO_ERROR_BROKEN_PIPE, G_IO_ERROR_TIMED_OUT, G_IO_ERROR_HOST_UNREACHABLE,
            G_IO_ERROR_NETWORK_UNREACHABLE, G_IO_ERROR_NOT_CONNECTED, G_IO_ERROR_PERMISSION_DENIED,
        ].map { Int32($0.rawValue) }
    )
}
#endif
