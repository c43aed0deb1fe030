import Foundation
public import KeyscopeCore

extension Tunables {
    /// The value of `key`: the current one, else (the key was removed, or never set) its bundled default, else
    /// `nil`.
    public func get(_ key: String) -> StoreValue? {
        store.get(TunablesDocument.path(key)) ?? defaults[key]
    }

    /// Every tunable the store holds, key → current value (what `GET /tune` answers and the file holds).
    public func getAll() -> [String: StoreValue] {
        store.snapshot().objectValue ?? [:]
    }

    /// Sets one tunable after checking it (the key's form, the schema's rules); a key the tunables do not have yet
    /// is created, unless the schema is closed. A refused value changes nothing.
    /// ```swift
    /// try tunables.set("accent", .color(StoreColor("#FF8800")!))
    /// try tunables.set("new_banner_delay", 2.5)      // a new key: in the log and saved to the file like any change
    /// ```
    /// - Throws: ``TunablesError`` (``TunablesError/Code/badKey``, ``TunablesError/Code/unknownKey`` for a key a
    ///   closed schema refuses, ``TunablesError/Code/typeMismatch``, ``TunablesError/Code/outOfRange``, or
    ///   ``TunablesError/Code/store`` once stopped).
    public func set(_ key: String, _ value: StoreValue) throws(TunablesError) {
        try setAll([key: value])
    }

    /// Sets several tunables as one change (one transaction), after checking every one of them; when one is
    /// refused, none is set. Keys not given keep their values; new keys are created.
    public func setAll(_ values: [String: StoreValue]) throws(TunablesError) {
        for key in values.keys.sorted() { try rules.check(key: key, value: values[key]!) }
        let operations = values.keys.sorted().map { StoreOperation.set(TunablesDocument.path($0), values[$0]!) }
        try write(operations)
    }

    /// Makes the tunables exactly `values`, as one change: keys `values` lacks are removed (a read of one then
    /// gives its bundled default), new keys are created, the others set (what `POST /tune` does).
    /// - Throws: as ``setAll(_:)``, and ``TunablesError/Code/missingKey`` when a key the schema requires is missing.
    public func replaceAll(_ values: [String: StoreValue]) throws(TunablesError) {
        try rules.check(replacement: values)
        try writable()
        try TunablesDocument.replace(store, with: values)
    }

    /// Removes `key`; a read of it then gives its bundled default, if there is one.
    /// - Throws: ``TunablesError/Code/unknownKey`` when the store does not hold `key`,
    ///   ``TunablesError/Code/missingKey`` when the schema requires it.
    public func remove(_ key: String) throws(TunablesError) {
        guard store.get(TunablesDocument.path(key)) != nil else { throw .unknownKey(key) }
        try rules.check(removalOf: key)
        try write([.remove(TunablesDocument.path(key))])
    }

    /// Puts `key` back to its bundled default (or removes it when the defaults do not have it).
    /// - Throws: ``TunablesError/Code/unknownKey`` for a key that is neither held nor in the defaults.
    public func reset(_ key: String) throws(TunablesError) {
        let path = TunablesDocument.path(key)
        guard defaults[key] != nil || store.get(path) != nil else { throw .unknownKey(key) }
        try write([defaults[key].map { .set(path, $0) } ?? .remove(path)])
    }

    /// Puts every tunable back to the bundled defaults as one change; keys the defaults do not have are removed.
    public func resetAll() throws(TunablesError) {
        try writable()
        try TunablesDocument.replace(store, with: defaults)
    }

    /// The value of `key` now and after each change to it (`nil` while the store does not hold the key; ``get(_:)``
    /// then gives the bundled default).
    /// ```swift
    /// let c = tunables.publisher(for: "toolbar_height").sink { layout(height: $0?.doubleValue ?? 44) }
    /// ```
    public func publisher(for key: String, label: String? = nil) -> StorePublisher<StoreValue?> {
        store.publisher(for: TunablesDocument.path(key), label: label)
    }

    /// Every tunable now and after each change to any of them.
    public func publisher(label: String? = nil) -> AnyPublisher<[String: StoreValue], Never> {
        store.publisher(for: .root, label: label).map { $0?.objectValue ?? [:] }.eraseToAnyPublisher()
    }

    // MARK: Writing

    private func writable() throws(TunablesError) {
        if isStopped {
            throw TunablesError(code: .store, message: "the tunables at \(fileURL.path) were stopped; open them again")
        }
    }

    private func write(_ operations: [StoreOperation]) throws(TunablesError) {
        try writable()
        guard !operations.isEmpty else { return }
        do {
            try store.apply(operations)
        } catch {
            throw TunablesError(code: .store, message: "the store \(store.id) refused the write: \(error)")
        }
    }
}
