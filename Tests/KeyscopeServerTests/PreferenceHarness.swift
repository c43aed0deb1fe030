import Foundation
import KeyscopeClient
import KeyscopeCore
import KeyscopeInspector
import KeyscopePreferences
import KeyscopeProtocol
import Synchronization

@testable import KeyscopeServer

/// A test double of KeyscopePreferences' endpoint: each suite and each secret service mirrored in a real
/// KeyValueStore registered in the hub's registry (one top-level key per preference), so the seqs the hub answers
/// are those of real changes.
///
/// ```swift
/// let preferences = try FakePreferences(registry: hub.registry, suites: ["com.shop": ["theme": "dark"]])
/// hub.preferencesFeature.endpoint = preferences
/// ```
/// Its rules, close to the real ones: editing off is `read_only`; an unknown container or deleting a missing key is
/// `unknown_key`; a suite cannot hold `null` and a secret must be a string (`type_mismatch`); the key `refused` is
/// refused by the suite (`bad_request`). Secrets are redacted in their mirror (`"•••• (N)"`). Setting the value
/// already there changes nothing.
final class FakePreferences: PreferencesEndpoint {
    struct Container: Hashable, Sendable {
        var source: PreferenceSource
        var name: String
    }

    let mirrors: [Container: KeyValueStore]
    let editing: Bool
    /// The secrets' real values (the mirrors hold them redacted).
    private let secrets: Mutex<[PreferenceRef: String]>
    private let refreshes = Mutex(0)

    init(
        registry: StoreRegistry, suites: [String: [String: StoreValue]], services: [String: [String: String]] = [:],
        editing: Bool = true
    ) throws {
        var mirrors: [Container: KeyValueStore] = [:]
        var secrets: [PreferenceRef: String] = [:]
        for (suite, values) in suites {
            let container = Container(source: .userDefaults, name: suite)
            mirrors[container] = KeyValueStore(id: Self.mirrorID(container), root: values)
        }
        for (service, values) in services {
            let container = Container(source: .secrets, name: service)
            mirrors[container] = KeyValueStore(
                id: Self.mirrorID(container), root: values.mapValues { .string(Self.redacted($0)) })
            for (account, secret) in values {
                secrets[PreferenceRef(source: .secrets, container: service, key: account)] = secret
            }
        }
        for store in mirrors.values { try registry.register(store) }
        self.mirrors = mirrors
        self.editing = editing
        self.secrets = Mutex(secrets)
    }

    /// `app/userPrefs:<suite>` or `app/secrets:<service>` (a `/` in the name, which a store id cannot hold,
    /// written `%2F`).
    static func mirrorID(_ container: Container) -> StoreID {
        let name = container.name.replacingOccurrences(of: "/", with: "%2F")
        switch container.source {
        case .userDefaults: return StoreID(scope: .app, storage: .userPrefs(suite: name))
        case .secrets: return StoreID(scope: .app, storage: .secrets(service: name))
        }
    }

    static func redacted(_ secret: String) -> String { "•••• (\(secret.utf8.count))" }

    /// The mirror of `ref`'s container.
    func mirror(_ ref: PreferenceRef) -> KeyValueStore? {
        mirrors[Container(source: ref.source, name: ref.container)]
    }

    /// What the mirror holds for `ref` (redacted for secrets).
    func mirrored(_ ref: PreferenceRef) -> StoreValue? { mirror(ref)?.snapshot()[ref.key] }

    /// A secret's real value.
    func secret(_ ref: PreferenceRef) -> String? { secrets.withLock { $0[ref] } }

    /// Every mirror's root, by store id: to check that a refused request changed nothing.
    var state: [StoreID: StoreValue] {
        Dictionary(uniqueKeysWithValues: mirrors.values.map { ($0.id, $0.snapshot()) })
    }

    var refreshCount: Int { refreshes.withLock { $0 } }

    // MARK: PreferencesEndpoint

    func panelDescription() -> StoreValue {
        let sorted = mirrors.sorted { ($0.key.source.rawValue, $0.key.name) < ($1.key.source.rawValue, $1.key.name) }
        var containers: [StoreValue] = []
        var items: [StoreValue] = []
        for (container, store) in sorted {
            let values = store.snapshot().objectValue ?? [:]
            containers.append([
                "source": .string(container.source.rawValue), "container": .string(container.name),
                "store": .string(store.id.description), "location": "memory", "count": .integer(Int64(values.count)),
            ])
            for key in values.keys.sorted() {
                let ref = PreferenceRef(source: container.source, container: container.name, key: key)
                items.append([
                    "id": .string(ref.description), "key": .string(key), "value": values[key] ?? .null,
                    "source": .string(container.source.rawValue), "container": .string(container.name),
                    "store": .string(store.id.description), "redacted": .bool(container.source == .secrets),
                    "system": false,
                ])
            }
        }
        return [
            "editing": .bool(editing), "reveal": false, "showSystemKeys": false, "containers": .array(containers),
            "items": .array(items),
        ]
    }

    func refresh() throws(HubError) {
        refreshes.withLock { $0 += 1 }
    }

    func mirrorStoreID(for ref: PreferenceRef) throws(HubError) -> StoreID {
        guard let store = mirror(ref) else {
            throw HubError(
                code: .unknownKey, message: "no \(ref.source.rawValue) container \"\(ref.container)\" is scanned")
        }
        return store.id
    }

    func update(_ ref: PreferenceRef, value: StoreValue) throws(HubError) {
        guard editing else { throw HubError(code: .readOnly, message: "editing preferences is turned off") }
        let store = try loadedMirror(ref)
        if ref.key == "refused" { throw .badRequest("the suite refused the value: it is locked") }
        let mirrored: StoreValue
        switch (ref.source, value) {
        case (.userDefaults, .null):
            throw HubError(code: .typeMismatch, message: "a suite cannot hold null")
        case (.userDefaults, _):
            mirrored = value
        case (.secrets, .string(let secret)):
            mirrored = .string(Self.redacted(secret))
            secrets.withLock { $0[ref] = secret }
        case (.secrets, _):
            throw HubError(code: .typeMismatch, message: "a secret is a string, not \(value.typeName)")
        }
        guard store.snapshot()[ref.key] != mirrored else { return }
        try apply(.set(StoreKeyPath(segments: [.key(ref.key)]), mirrored), to: store)
    }

    func delete(_ ref: PreferenceRef) throws(HubError) {
        guard editing else { throw HubError(code: .readOnly, message: "editing preferences is turned off") }
        let store = try loadedMirror(ref)
        guard store.snapshot()[ref.key] != nil else {
            throw HubError(code: .unknownKey, message: "\(ref) is not there")
        }
        try apply(.remove(StoreKeyPath(segments: [.key(ref.key)])), to: store)
        _ = secrets.withLock { $0.removeValue(forKey: ref) }
    }

    private func loadedMirror(_ ref: PreferenceRef) throws(HubError) -> KeyValueStore {
        _ = try mirrorStoreID(for: ref)
        guard let store = mirror(ref) else { throw .badRequest("unreachable") }
        return store
    }

    private func apply(_ operation: StoreOperation, to store: KeyValueStore) throws(HubError) {
        do {
            _ = try store.apply([operation], transactionID: nil)
        } catch {
            throw .badRequest("the mirror refused the change: \(error)")
        }
    }
}

/// A test double of the watches: a fixed panel that counts its refreshes.
final class FakeWatches: WatchesEndpoint {
    private let refreshes = Mutex(0)

    var refreshCount: Int { refreshes.withLock { $0 } }

    func panelDescription() -> StoreValue {
        [
            "statuses": [
                [
                    "name": "DataDirWritable", "key": "p_DataDirWritable", "suite": "com.shop.status", "value": "yes",
                    "stored": "yes", "inSync": true, "checked": "2026-11-21T10:00:00.000Z", "history": [],
                ]
            ],
            "rules": [], "violations": [], "refreshes": .integer(Int64(refreshCount)),
        ]
    }

    func refresh() {
        refreshes.withLock { $0 += 1 }
    }
}

/// A real server on a free loopback port (a ``TuneHarness`` without tunables) whose hub has a ``FakePreferences``
/// and a ``FakeWatches`` (or neither).
struct PreferenceHarness {
    let base: TuneHarness
    let preferences: FakePreferences?
    let watches: FakeWatches?

    static let suites: [String: [String: StoreValue]] = [
        "com.shop": ["theme": "dark", "count": 3, "a/b": "slash", "refused": "x"],
        "com/shop": ["theme": "light"],
    ]
    static let services: [String: [String: String]] = ["com.shop.api": ["token": "s3cret-token"]]

    init(
        withPreferences: Bool = true, withWatches: Bool = true, editing: Bool = true,
        configure: (inout ServerOptions) -> Void = { _ in }
    ) throws {
        base = try TuneHarness(withTunables: false, configure: configure)
        preferences =
            withPreferences
            ? try FakePreferences(
                registry: base.hub.registry, suites: Self.suites, services: Self.services, editing: editing)
            : nil
        watches = withWatches ? FakeWatches() : nil
        base.hub.preferencesFeature.endpoint = preferences
        base.hub.watchesFeature.endpoint = watches
    }

    func stop() { base.stop() }

    var hub: InspectorHub { base.hub }
    var endpoint: InspectorEndpoint { base.endpoint }

    /// One request; the body's JSON (nil when it has none or is not JSON).
    func call(
        _ method: String, _ target: String, body: String? = nil, contentType: String = "application/json",
        token: String? = nil, headers: [(name: String, value: String)] = []
    ) throws -> (status: Int, json: StoreValue?, response: HTTPResponse) {
        try base.call(method, target, body: body, contentType: contentType, token: token, headers: headers)
    }

    /// Every mirror's root, and the hub's last seq: what a refused request must leave as it was.
    var state: ([StoreID: StoreValue], Int) { (preferences?.state ?? [:], hub.lastSeq) }

    static func ref(_ source: PreferenceSource, _ container: String, _ key: String) -> PreferenceRef {
        PreferenceRef(source: source, container: container, key: key)
    }

    /// A key of the suite `com.shop`.
    static func ref(_ key: String) -> PreferenceRef { ref(.userDefaults, "com.shop", key) }
}
