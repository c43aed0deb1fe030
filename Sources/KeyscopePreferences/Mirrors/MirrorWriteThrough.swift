import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import Synchronization

/// The mirrors' write-through: what a mirror's gate does with each change before the store commits it.
extension PreferencesRepository {
    /// One top-level key to carry to the source.
    private struct PlannedWrite {
        var key: String
        /// The property-list object (suites) or the bytes (secrets) to store; `nil` removes the key.
        var target: Any?
        /// What the key holds in the source now, to put back if a later write of the same change fails.
        var previous: Any?
        /// Whether the source already holds `target` (then nothing is written).
        var alreadyThere: Bool
        /// The key's entry after the change; `nil` when it is removed.
        var entry: MirrorEntry?
    }

    /// Accepts or refuses `change` of the mirror of `name` (called by its ``MirrorGate`` under the store's lock).
    ///
    /// A rescan (a ``MirrorWrite`` refresh marker) only records its entries. Any other change is carried to the
    /// source key by key: each top-level key whose value changed is converted (``PlistConversion`` for suites, the
    /// secret's bytes for secrets) and written, unless the source already holds it; then the entries are recorded.
    /// Refused, with nothing written: a redacted secret mirror (`bad_request`, unless the change is the repository's
    /// own edit), a hidden system key (`bad_request`), a value the source cannot hold (`type_mismatch`), editing off
    /// when something would be written (`read_only`), and a source that fails (`bad_request`; the keys written before
    /// it in this change are put back).
    func commit(_ change: StoreChange, before: StoreValue, after: StoreValue, in name: ContainerName)
        throws(StoreError)
    {
        let marker = MirrorWrite.current.flatMap {
            $0.repository == ObjectIdentifier(self) && $0.container == name ? $0 : nil
        }
        if case .refresh(let generation, let entries)? = marker?.kind {
            try recordRefresh(of: name, generation: generation, entries: entries)
            return
        }
        var changed: [String: StoreValue?] = [:]
        for key in Self.touchedKeys(change, before: before, after: after) {
            let new = after.objectValue?[key]
            if case .secretEdit(let account, _)? = marker?.kind, account == key {
                changed[key] = .some(new)
            } else if before.objectValue?[key] != new {
                changed[key] = .some(new)
            }
        }
        guard !changed.isEmpty else { return }
        do {
            try writeThrough(changed, in: name, marker: marker)
        } catch {
            throw error.storeError
        }
    }

    /// Writes `changes` (key → new mirror value, `nil` removing the key) to the source of `name` and records the
    /// entries. Called under the mirror store's lock: by the gate, and by an edit whose value the mirror already shows.
    func writeThrough(_ changes: [String: StoreValue?], in name: ContainerName, marker: MirrorWrite?)
        throws(PreferenceSourceError)
    {
        guard let container = state.withLock({ $0.containers[name] }) else {
            throw .unknownKey(
                "\(name) is no longer scanned (it was removed, or the repository stopped); nothing written")
        }
        var plan: [PlannedWrite] = []
        for key in changes.keys.sorted() {
            let new = changes[key] ?? nil
            switch name.source {
            case .userDefaults: plan.append(try planSuiteWrite(key, new, suite: name.name, old: container.entries[key]))
            case .secrets: plan.append(try planSecretWrite(key, new, container: container, marker: marker))
            }
        }
        let needed = plan.filter { !$0.alreadyThere }
        if !needed.isEmpty && !configuration.editingEnabled { throw .editingOff }
        var written: [PlannedWrite] = []
        for write in needed {
            do {
                try store(write.target, key: write.key, in: name)
                written.append(write)
            } catch {
                for done in written.reversed() { try? store(done.previous, key: done.key, in: name) }
                throw error
            }
        }
        Self.announce(written.map(\.key), in: name)
        state.withLock { state in
            guard var container = state.containers[name] else { return }
            for write in plan { container.entries[write.key] = write.entry }
            container.generation += 1
            state.containers[name] = container
        }
    }

    private func planSuiteWrite(_ key: String, _ new: StoreValue?, suite: String, old: MirrorEntry?)
        throws(PreferenceSourceError) -> PlannedWrite
    {
        if PreferenceNames.isSystemKey(key) && !configuration.showSystemKeys {
            throw PreferenceSourceError(
                code: .refused,
                message: "\(PreferenceNames.quoted(key)) is a system key, hidden (PreferencesConfiguration."
                    + "showSystemKeys is off); it is not written")
        }
        let current = try userDefaults.rawValue(key: key, suite: suite)
        guard let new else {
            return PlannedWrite(key: key, target: nil, previous: current, alreadyThere: current == nil, entry: nil)
        }
        let target = try PlistConversion.encode(new, like: current, key: key)
        let type = try PlistConversion.decode(target, key: key).type
        let alreadyThere = PlistConversion.same(target, current)
        var entry = MirrorEntry(value: new, type: type, timestamp: Date(), system: PreferenceNames.isSystemKey(key))
        if alreadyThere, let old, old.value == new { entry.timestamp = old.timestamp }
        return PlannedWrite(key: key, target: target, previous: current, alreadyThere: alreadyThere, entry: entry)
    }

    private func planSecretWrite(
        _ account: String, _ new: StoreValue?, container: MirrorContainer, marker: MirrorWrite?
    )
        throws(PreferenceSourceError) -> PlannedWrite
    {
        guard let secrets else { throw .backend("no secret store is attached; nothing written") }
        let service = container.name.name
        let bytes: Data?
        if case .secretEdit(let edited, let editBytes)? = marker?.kind, edited == account {
            bytes = editBytes
        } else if !configuration.revealSecrets {
            throw PreferenceSourceError(
                code: .refused, message: "secrets are redacted; edit them with the preference request")
        } else {
            bytes = try new.map { value throws(PreferenceSourceError) in
                try SecretsScanner.bytes(from: value, type: container.entries[account]?.type, account: account)
            }
        }
        let current = try secrets.read(service: service, account: account)
        let entry = bytes.map { bytes in
            let shown = SecretsScanner.shown(bytes, reveal: configuration.revealSecrets)
            var entry = MirrorEntry(
                value: shown.value, type: shown.type, timestamp: Date(), length: shown.length,
                redacted: shown.redacted, fingerprint: Self.fingerprint(bytes))
            if current == bytes, let old = container.entries[account], old.sameValue(as: entry) {
                entry.timestamp = old.timestamp
            }
            return entry
        }
        return PlannedWrite(
            key: account, target: bytes, previous: current, alreadyThere: current == bytes, entry: entry)
    }

    /// Writes one key to the source: a property-list object to a suite, bytes to the secret store; `nil` removes.
    private func store(_ target: Any?, key: String, in name: ContainerName) throws(PreferenceSourceError) {
        switch name.source {
        case .userDefaults:
            try userDefaults.write(target, key: key, suite: name.name)
        case .secrets:
            guard let secrets else { throw .backend("no secret store is attached; nothing written") }
            try secrets.write(target as? Data, service: name.name, account: key)
        }
    }

    /// Tells the app's property wrappers that `keys` changed under them: corelibs posts
    /// `UserDefaults.didChangeNotification` only for whole-domain changes (one post covers a suite's keys), and no one
    /// posts for secrets (one post per account). Posted from another thread, after this write's store lock is
    /// released, so a wrapper's subscriber may write to any store.
    static func announce(_ keys: [String], in name: ContainerName) {
        guard !keys.isEmpty else { return }
        DispatchQueue.global().async {
            switch name.source {
            case .userDefaults:
                NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: nil)
            case .secrets:
                for key in keys {
                    NotificationCenter.default.post(
                        name: KeychainValueDefaults.didChangeNotification, object: nil,
                        userInfo: ["service": name.name, "account": key])
                }
            }
        }
    }

    /// Records a rescan's entries, unless a write went through since the rescan read the source.
    private func recordRefresh(of name: ContainerName, generation: Int, entries: [String: MirrorEntry])
        throws(StoreError)
    {
        let current = state.withLock { state -> Bool in
            guard var container = state.containers[name], container.generation == generation else { return false }
            container.entries = entries
            container.generation += 1
            state.containers[name] = container
            return true
        }
        guard current else {
            throw StoreError(code: .conflict, message: "\(name) was written meanwhile; the rescan is retried")
        }
    }

    /// The top-level keys `change` touched: each patch's first key, or every key when it set the root.
    static func touchedKeys(_ change: StoreChange, before: StoreValue, after: StoreValue) -> Set<String> {
        var keys = Set<String>()
        for patch in change.patches {
            switch patch.keyPath.segments.first {
            case .key(let key)?: keys.insert(key)
            case .index?: break  // the root is an object
            case nil:
                keys.formUnion(before.objectValue.map { Array($0.keys) } ?? [])
                keys.formUnion(after.objectValue.map { Array($0.keys) } ?? [])
            }
        }
        return keys
    }

    /// A hash of a secret's bytes, compared only within this process.
    static func fingerprint(_ bytes: Data) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes)
        return hasher.finalize()
    }
}
