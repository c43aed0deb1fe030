#if canImport(CLibSecret)
import CLibSecret

/// Asks a D-Bus bus whether a Secret Service is running on it, on a private connection (so that libsecret's shared
/// connection is not bound to a bus before the store is used) that is closed afterwards.
enum SessionBusProbe {
    static let secretServiceName = "org.freedesktop.secrets"

    /// `true` when `address` (a D-Bus address such as `unix:path=/run/user/1000/bus`) accepts a connection and
    /// someone owns `org.freedesktop.secrets` on it within `timeoutMilliseconds`. A service that could be started
    /// on demand (D-Bus activation) but is not running does not count: a freshly started keyring would be locked.
    static func secretServiceAnswers(at address: String, timeoutMilliseconds: Int32 = 2000) -> Bool {
        guard !address.isEmpty else { return false }
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(
            rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue
        )
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            if let error { g_error_free(error) }
            return false
        }
        defer {
            g_dbus_connection_close_sync(connection, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
        var name: OpaquePointer? = g_variant_new_string(secretServiceName)
        // The floating reference of the tuple is taken by the call.
        let arguments = g_variant_new_tuple(&name, 1)
        let reply = g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
            arguments, g_variant_type_checked_("(b)"), G_DBUS_CALL_FLAGS_NONE, timeoutMilliseconds, nil, &error
        )
        guard let reply else {
            if let error { g_error_free(error) }
            return false
        }
        defer { g_variant_unref(reply) }
        guard let owned = g_variant_get_child_value(reply, 0) else { return false }
        defer { g_variant_unref(owned) }
        return g_variant_get_boolean(owned) != 0
    }
}
#endif
