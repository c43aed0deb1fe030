#if canImport(CLibSecret)
import CLibSecret
import Foundation

/// The libsecret calls of ``SecretServiceStore``: its schema, attribute tables, and the four sync calls it makes.
/// Each function frees what it allocates and every GError it receives (through ``SecretServiceErrors``) exactly once.
enum LibSecret {
    /// One item found by a search, copied out of libsecret's objects.
    struct Found {
        var attributes: [String: String]
        /// `nil` when secrets were not asked for.
        var secret: Data?
        var modified: Date?
    }

    /// `dev.keyscope.Secret`: `app`, `service`, `account` and `encoding` (`text` or `base64`), all strings.
    /// libsecret adds `xdg:schema` to every item and every search, so searches only ever see Keyscope's items.
    static let schemaName = "dev.keyscope.Secret"
    static let attributeNames = ["app", "service", "account", "encoding"]

    /// A handle libsecret only reads, built once and never freed (so it outlives every call that uses it).
    private struct Schema: @unchecked Sendable {  // @unchecked: immutable after creation; libsecret never writes it.
        let pointer: UnsafeMutablePointer<SecretSchema>?
    }

    private static let schema: Schema = {
        let types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, nil)
        defer { g_hash_table_unref(types) }
        for name in attributeNames {
            // The value is the attribute's type: SECRET_SCHEMA_ATTRIBUTE_STRING, which is 0 (a NULL pointer).
            g_hash_table_insert(types, g_strdup(name), nil)
        }
        return Schema(pointer: secret_schema_newv(schemaName, SECRET_SCHEMA_NONE, types))
    }()

    /// The process's Secret Service proxy (libsecret's shared one), with a session open; release with `release`.
    static func connect() throws(SecretStoreError) -> UnsafeMutablePointer<SecretService> {
        var error: UnsafeMutablePointer<GError>?
        guard let service = secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, nil, &error) else {
            throw SecretServiceErrors.take(error, while: "connect to the Secret Service", connecting: true)
        }
        // A library must not end its host process: GDBus's shared session connection would raise SIGTERM when the
        // bus goes away; make it report closed calls instead.
        let proxy = UnsafeMutableRawPointer(service).assumingMemoryBound(to: GDBusProxy.self)
        if let connection = g_dbus_proxy_get_connection(proxy) {
            g_dbus_connection_set_exit_on_close(connection, 0)
        }
        return service
    }

    static func release(_ service: UnsafeMutablePointer<SecretService>) {
        g_object_unref(service)
    }

    /// Every Keyscope item matching `attributes`, unlocking them as needed, with their secrets when `secrets`.
    static func search(
        _ service: UnsafeMutablePointer<SecretService>,
        _ attributes: [String: String],
        secrets: Bool,
        while operation: String
    ) throws(SecretStoreError) -> [Found] {
        var flags = SECRET_SEARCH_ALL.rawValue | SECRET_SEARCH_UNLOCK.rawValue
        if secrets { flags |= SECRET_SEARCH_LOAD_SECRETS.rawValue }
        var error: UnsafeMutablePointer<GError>?
        let list = withTable(attributes) { table in
            secret_service_search_sync(service, schema.pointer, table, SecretSearchFlags(rawValue: flags), nil, &error)
        }
        defer { if let list { g_list_free_full(list, g_object_unref) } }
        if error != nil { throw SecretServiceErrors.take(error, while: operation) }
        var found: [Found] = []
        var node = list
        while let current = node {
            node = current.pointee.next
            guard let data = current.pointee.data else { continue }
            found.append(
                try copy(data.assumingMemoryBound(to: CLibSecret.SecretItem.self), secrets: secrets, operation))
        }
        return found
    }

    /// Creates or replaces (same attributes) one item in the default collection.
    static func store(
        _ service: UnsafeMutablePointer<SecretService>,
        _ attributes: [String: String],
        label: String,
        secret: Data,
        contentType: String,
        while operation: String
    ) throws(SecretStoreError) {
        let copied: OpaquePointer?
        if secret.isEmpty {
            copied = secret_value_new("", 0, contentType)
        } else {
            copied = secret.withUnsafeBytes { bytes in
                secret_value_new(
                    bytes.baseAddress?.assumingMemoryBound(to: CChar.self), gssize(bytes.count), contentType)
            }
        }
        guard let value = copied else {
            throw SecretStoreError(code: .io, message: "could not \(operation): libsecret could not hold the value")
        }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        var error: UnsafeMutablePointer<GError>?
        let stored = withTable(attributes) { table in
            secret_service_store_sync(
                service, schema.pointer, table, SECRET_COLLECTION_DEFAULT, label, value, nil, &error
            )
        }
        if stored == 0 || error != nil { throw SecretServiceErrors.take(error, while: operation) }
    }

    /// Deletes every Keyscope item matching `attributes`; `false` when there was none.
    static func clear(
        _ service: UnsafeMutablePointer<SecretService>,
        _ attributes: [String: String],
        while operation: String
    ) throws(SecretStoreError) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let cleared = withTable(attributes) { table in
            secret_service_clear_sync(service, schema.pointer, table, nil, &error)
        }
        if error != nil { throw SecretServiceErrors.take(error, while: operation) }
        return cleared != 0
    }

    /// Drops libsecret's shared proxy, so that the next call connects anew (to the bus named then).
    static func disconnect() {
        secret_service_disconnect()
    }

    /// Runs `body` with a GHashTable of copies of `attributes`, freed afterwards.
    private static func withTable<Result>(_ attributes: [String: String], _ body: (OpaquePointer?) -> Result) -> Result
    {
        let table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)
        defer { g_hash_table_unref(table) }
        for (key, value) in attributes {
            g_hash_table_insert(table, g_strdup(key), g_strdup(value))
        }
        return body(table)
    }

    private static func copy(
        _ item: UnsafeMutablePointer<CLibSecret.SecretItem>,
        secrets: Bool,
        _ operation: String
    ) throws(SecretStoreError) -> Found {
        if secret_item_get_locked(item) != 0 {
            throw SecretServiceErrors.map(
                domain: .secret,
                code: Int32(SECRET_ERROR_IS_LOCKED.rawValue),
                message: "an item stayed locked",
                while: operation
            )
        }
        var found = Found(attributes: [:], secret: nil, modified: nil)
        if let table = secret_item_get_attributes(item) {
            defer { g_hash_table_unref(table) }
            for name in attributeNames {
                if let value = g_hash_table_lookup(table, name) {
                    found.attributes[name] = String(cString: value.assumingMemoryBound(to: CChar.self))
                }
            }
        }
        let seconds = secret_item_get_modified(item)
        if seconds > 0 { found.modified = Date(timeIntervalSince1970: TimeInterval(seconds)) }
        guard secrets else { return found }
        guard let value = secret_item_get_secret(item) else {
            throw SecretStoreError(
                code: .unavailable,
                message: "could not \(operation): the Secret Service did not hand over the secret (a locked item?). "
                    + "Unlock the keyring and retry"
            )
        }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        var length: gsize = 0
        if let bytes = secret_value_get(value, &length) {
            found.secret = Data(bytes: bytes, count: Int(length))
        } else {
            found.secret = Data()
        }
        return found
    }
}
#endif
