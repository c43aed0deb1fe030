import Foundation
public import KeyscopeCore
import KeyscopeInspector
public import KeyscopeProtocol
import Synchronization

/// Edits and deletes: written to the source first, then to the mirror as one change.
extension PreferencesRepository {
    /// Sets `ref` to `value` (creating the key when missing) in its suite or secret store, durably and visibly to
    /// the app, then updates the mirror (see ``PreferencesEndpoint/update(_:value:)``).
    ///
    /// A `date` preference takes an ISO 8601 string, a `data` one (and a secret holding bytes) a base64 string, a
    /// `number` one an integer too; a new key gets the type of `value`. When the mirror already shows `value` there
    /// is no change (the source is still made to hold it).
    /// - Throws: `read_only` (editing off), `unknown_key` (container not scanned; a hidden system key),
    ///   `type_mismatch`, `bad_request` (an unusable name, or what the suite or the secret store refused).
    public func update(_ ref: PreferenceRef, value: StoreValue) throws(HubError) {
        do {
            try edit(ref, to: value)
        } catch {
            throw error.hubError
        }
    }

    /// Deletes `ref` from its suite or secret store, then from the mirror. Errors as for ``update(_:value:)``, and
    /// `unknown_key` for a key that is not there.
    public func delete(_ ref: PreferenceRef) throws(HubError) {
        do {
            try edit(ref, to: nil)
        } catch {
            throw error.hubError
        }
    }

    /// Rescans every source now; what changed meanwhile becomes one change per container in its mirror (see
    /// ``PreferencesEndpoint/refresh()``). Allowed with editing off: it only reads the sources.
    /// - Throws: `bad_request` once the repository is stopped.
    public func refresh() throws(HubError) {
        guard !isStopped else { throw .badRequest("the preferences repository was stopped; nothing to refresh") }
        rescan()
    }

    /// The mirror store of `ref`'s container.
    /// - Throws: `unknown_key` when the container is not scanned, `bad_request` for an unusable name.
    public func mirrorStoreID(for ref: PreferenceRef) throws(HubError) -> StoreID {
        do {
            return try scannedContainer(ref).store.id
        } catch {
            throw error.hubError
        }
    }

    /// Writes `value` (`nil` deletes) to the source of `ref`, then to its mirror.
    private func edit(_ ref: PreferenceRef, to value: StoreValue?) throws(PreferenceSourceError) {
        guard configuration.editingEnabled else { throw .editingOff }
        let container = try scannedContainer(ref)
        let key = ref.key
        let shown: StoreValue?
        let marker: MirrorWrite?
        switch ref.source {
        case .userDefaults:
            if PreferenceNames.isSystemKey(key) && !configuration.showSystemKeys {
                throw .unknownKey(
                    "\(PreferenceNames.quoted(key)) is a system key, hidden (turn on PreferencesConfiguration."
                        + "showSystemKeys to edit it)")
            }
            let current = try userDefaults.rawValue(key: key, suite: ref.container)
            if let value {
                // The mirror gets the value as the suite will give it back (`3` for a number key reads as `3.0`).
                let target = try PlistConversion.encode(value, like: current, key: key)
                shown = try PlistConversion.decode(target, key: key).value
            } else {
                guard current != nil || container.entries[key] != nil else { throw missing(ref) }
                shown = nil
            }
            marker = nil
        case .secrets:
            guard let secrets else { throw .backend("no secret store is attached") }
            let bytes = try value.map { value throws(PreferenceSourceError) in
                try SecretsScanner.bytes(from: value, type: container.entries[key]?.type, account: key)
            }
            if bytes == nil, container.entries[key] == nil,
                try secrets.read(service: ref.container, account: key) == nil
            {
                throw missing(ref)
            }
            shown = bytes.map { SecretsScanner.shown($0, reveal: configuration.revealSecrets).value }
            marker = MirrorWrite(
                repository: ObjectIdentifier(self), container: container.name,
                kind: .secretEdit(account: key, bytes: bytes))
        }
        try writeToMirror(shown, key: key, of: container, marker: marker)
    }

    /// Sets (or removes) `key` in the mirror as one change, which its gate writes through to the source; when the
    /// mirror already shows that, writes the source directly (under the mirror's lock all the same).
    private func writeToMirror(_ shown: StoreValue?, key: String, of container: MirrorContainer, marker: MirrorWrite?)
        throws(PreferenceSourceError)
    {
        let path = StoreKeyPath(segments: [.key(key)])
        do {
            try MirrorWrite.$current.withValue(marker) {
                try container.store.transaction { tx in
                    if tx.get(path) != shown {
                        if let shown { try tx.set(path, shown) } else { try tx.remove(path) }
                    } else {
                        try self.writeThrough([key: shown], in: container.name, marker: marker)
                    }
                }
            }
        } catch let error as PreferenceSourceError {
            throw error
        } catch let error as StoreError {
            throw Self.sourceError(error)
        } catch {
            throw .backend("\(error)")
        }
    }

    private func missing(_ ref: PreferenceRef) -> PreferenceSourceError {
        .unknownKey(
            "\(PreferenceNames.quoted(ref.key)) is not in \(ContainerName(source: ref.source, name: ref.container))")
    }

    /// A mirror's refusal in the repository's terms (the codes the wire shares are kept).
    private static func sourceError(_ error: StoreError) -> PreferenceSourceError {
        switch error.code {
        case .typeMismatch: PreferenceSourceError(code: .typeMismatch, message: error.message)
        case .readOnly: PreferenceSourceError(code: .readOnly, message: error.message)
        case .storeRemoved: PreferenceSourceError(code: .unknownKey, message: error.message)
        default: PreferenceSourceError(code: .backend, message: error.message)
        }
    }
}
