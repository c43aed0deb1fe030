import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol

/// A scanned container's identity: its source and its suite or service name.
struct ContainerName: Sendable, Hashable, Comparable, CustomStringConvertible {
    var source: PreferenceSource
    var name: String

    /// `app/userPrefs:<suite>` or `app/secrets:<service>` (docs/store.md store ids; never a backend store).
    var storeID: StoreID {
        switch source {
        case .userDefaults: StoreID(scope: .app, storage: .userPrefs(suite: name))
        case .secrets: StoreID(scope: .app, storage: .secrets(service: name))
        }
    }

    /// `suite com.shop` or `secret service com.shop.api`, for messages.
    var description: String {
        (source == .userDefaults ? "suite " : "secret service ") + PreferenceNames.quoted(name)
    }

    /// Sources in ``PreferenceSource/allCases`` order (UserDefaults first), then names.
    static func < (lhs: ContainerName, rhs: ContainerName) -> Bool {
        let order = PreferenceSource.allCases
        if lhs.source != rhs.source {
            return order.firstIndex(of: lhs.source)! < order.firstIndex(of: rhs.source)!
        }
        return lhs.name < rhs.name
    }
}

/// One preference as the repository knows it: what its mirror holds and what the panel says about it.
struct MirrorEntry: Sendable, Hashable {
    /// The value the mirror store holds: the docs/store.md form, or the placeholder for a redacted secret.
    var value: StoreValue
    var type: PreferenceValueType
    /// When Keyscope last saw the value change (at the first scan: the suite file's modification time).
    var timestamp: Date
    /// A platform or Keyscope key (`Apple*`, `NS*`, `com.apple.*`, `keyscope.*`).
    var system = false
    /// Secrets: the byte count.
    var length: Int?
    /// Secrets: whether ``value`` is the placeholder.
    var redacted = false
    /// Secrets: a hash of the bytes (never leaves the process), so that a change of a redacted secret whose
    /// placeholder stays the same is still seen.
    var fingerprint: Int?

    /// Whether `other` shows the same value (the timestamp aside).
    func sameValue(as other: MirrorEntry) -> Bool {
        value == other.value && type == other.type && fingerprint == other.fingerprint
    }
}

/// A scanned container and its mirror store.
struct MirrorContainer: Sendable {
    var name: ContainerName
    let store: KeyValueStore
    /// The suite's file, or the secret store's backend name.
    var location: String
    /// Bumped by every change the mirror's gate accepts, so that a refresh that read the source before a write
    /// through the mirror does not put older values back (see ``MirrorWrite``).
    var generation = 0
    var entries: [String: MirrorEntry]
}

/// What a change of a mirror is, when the repository makes it: bound (task-local, so thread-local outside tasks)
/// around the repository's own writes to a mirror, and read by the mirror's gate on that same thread. A change with
/// no marker is a client's (a write, a transaction, a revert) and is written through to the source.
struct MirrorWrite: Sendable {
    enum Kind: Sendable {
        /// A rescan: the source already holds these values; `entries` are the container's entries after it. The
        /// gate refuses it (`conflict`) when the mirror's generation is no longer `generation`: a write went through
        /// meanwhile, and the rescan is retried.
        case refresh(generation: Int, entries: [String: MirrorEntry])
        /// A `preference` edit of a secret: the real bytes to store for `account` (`nil` deletes it), which the
        /// mirror (redacted) cannot carry.
        case secretEdit(account: String, bytes: Data?)
    }

    let repository: ObjectIdentifier
    let container: ContainerName
    let kind: Kind

    @TaskLocal static var current: MirrorWrite?
}

/// A mirror store's ``KeyscopeCore/StoreCommitGate``: hands every change to the repository, which writes it through
/// to the suite or the secret store (or refuses it) before the store commits it.
final class MirrorGate: StoreCommitGate {
    /// Weak: the repository holds the stores, which hold their gates.
    weak let repository: PreferencesRepository?
    let container: ContainerName

    init(repository: PreferencesRepository, container: ContainerName) {
        self.repository = repository
        self.container = container
    }

    func willCommit(_ change: StoreChange, before: StoreValue, after: StoreValue) throws(StoreError) {
        guard let repository else {
            throw StoreError(
                code: .badRequest, message: "the preferences repository of \(container) was released; nothing written")
        }
        try repository.commit(change, before: before, after: after, in: container)
    }
}
