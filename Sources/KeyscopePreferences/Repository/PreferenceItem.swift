public import Foundation
public import KeyscopeCore
public import KeyscopeInspector
public import KeyscopeProtocol

/// One preference as the repository shows it: a key of a scanned suite or an account of a scanned secret service.
///
/// ```swift
/// for item in repository.items(source: .userDefaults) {
///     print(item.id, item.type, item.value)      // userDefaults/com.shop/theme string "dark"
/// }
/// ```
/// A secret's ``value`` is the placeholder `"•••• (N)"` (``isRedacted``) unless the configuration reveals secrets.
public struct PreferenceItem: Sendable, Hashable, Identifiable {
    /// Its source, container and key.
    public var ref: PreferenceRef
    /// The value its mirror store holds (docs/store.md form: dates as ISO 8601, data as base64 strings).
    public var value: StoreValue
    /// The stored type.
    public var type: PreferenceValueType
    /// The mirror store of its container.
    public var storeID: StoreID
    /// When Keyscope last saw the value change (at the first scan: the suite file's modification time).
    public var timestamp: Date
    /// Whether ``value`` is a secret's placeholder.
    public var isRedacted: Bool
    /// A secret's length in bytes (`nil` for UserDefaults preferences).
    public var length: Int?
    /// Whether it is a key the platform or Keyscope keep (`Apple*`, `NS*`, `com.apple.*`, `keyscope.*`).
    public var isSystem: Bool

    public init(
        ref: PreferenceRef, value: StoreValue, type: PreferenceValueType, storeID: StoreID, timestamp: Date,
        isRedacted: Bool = false, length: Int? = nil, isSystem: Bool = false
    ) {
        self.ref = ref
        self.value = value
        self.type = type
        self.storeID = storeID
        self.timestamp = timestamp
        self.isRedacted = isRedacted
        self.length = length
        self.isSystem = isSystem
    }

    /// `<source>/<container>/<key>`.
    public var id: String { ref.description }
    public var key: String { ref.key }
    public var source: PreferenceSource { ref.source }
    public var container: String { ref.container }

    /// The panel's form (docs/preferences.md, "The panel"): `id`, `key`, `value`, `type`, `source`, `container`,
    /// `suite` or `service`, `store`, `timestamp` (the log's time form), `redacted`, `length` (redacted secrets
    /// only) and `system`.
    public var jsonObject: StoreValue {
        var object: [String: StoreValue] = [
            "id": .string(id), "key": .string(key), "value": value, "type": .string(type.rawValue),
            "source": .string(source.rawValue), "container": .string(container), "store": .string(storeID.description),
            "timestamp": .string(PreferenceTime.format(timestamp)), "redacted": .bool(isRedacted),
            "system": .bool(isSystem),
        ]
        object[source == .userDefaults ? "suite" : "service"] = .string(container)
        if isRedacted, let length { object["length"] = .integer(Int64(length)) }
        return .object(object)
    }
}

/// One scanned container: a UserDefaults suite or a secret service, with its mirror store.
///
/// ```swift
/// repository.containers().map(\.storeID)     // [app/userPrefs:com.shop, app/secrets:com.shop.api]
/// ```
public struct PreferenceContainer: Sendable, Hashable {
    public var source: PreferenceSource
    /// The suite or the service.
    public var name: String
    /// `app/userPrefs:<suite>` or `app/secrets:<service>`.
    public var storeID: StoreID
    /// The suite's file, or the secret store's backend name (`file`, `secret-service`, `keychain`).
    public var location: String
    /// How many preferences it shows (hidden system keys not counted).
    public var count: Int

    public init(source: PreferenceSource, name: String, storeID: StoreID, location: String, count: Int) {
        self.source = source
        self.name = name
        self.storeID = storeID
        self.location = location
        self.count = count
    }

    /// The panel's form: `source`, `container`, `store`, `location`, `count`.
    public var jsonObject: StoreValue {
        .object([
            "source": .string(source.rawValue), "container": .string(name), "store": .string(storeID.description),
            "location": .string(location), "count": .integer(Int64(count)),
        ])
    }
}
