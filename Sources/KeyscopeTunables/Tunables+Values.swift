import Foundation
public import KeyscopeCore

extension Tunables {
    /// The value of `key`, or `nil` when there is no such tunable.
    public func get(_ key: String) -> StoreValue? {
        store.get(TunablesDocument.path(key))
    }

    /// Every tunable, key → current value.
    public func getAll() -> [String: StoreValue] {
        store.snapshot().objectValue ?? [:]
    }

    /// Sets one tunable after checking it (a known key, the schema's rules); a refused value changes nothing.
    /// ```swift
    /// try tunables.set("accent", .color(StoreColor("#FF8800")!))
    /// ```
    /// - Throws: ``TunablesError`` (``TunablesError/Code/unknownKey``, ``TunablesError/Code/typeMismatch``,
    ///   ``TunablesError/Code/outOfRange``, or ``TunablesError/Code/store`` once stopped).
    public func set(_ key: String, _ value: StoreValue) throws(TunablesError) {
        try setAll([key: value])
    }

    /// Sets several tunables as one change (one transaction), after checking every one of them; when one is
    /// refused, none is set. Keys not given keep their values.
    public func setAll(_ values: [String: StoreValue]) throws(TunablesError) {
        for key in values.keys.sorted() { try check(key: key, value: values[key]!) }
        let operations = values.keys.sorted().map { StoreOperation.set(TunablesDocument.path($0), values[$0]!) }
        try write(operations)
    }

    /// Puts `key` back to its bundled default (or removes it when the defaults do not have it).
    /// - Throws: ``TunablesError/Code/unknownKey`` for a key that is not a tunable.
    public func reset(_ key: String) throws(TunablesError) {
        guard isKnown(key) else { throw .unknownKey(key) }
        let path = TunablesDocument.path(key)
        try write([defaults[key].map { .set(path, $0) } ?? .remove(path)])
    }

    /// Puts every tunable back to the bundled defaults as one change; keys the defaults do not have are removed.
    public func resetAll() throws(TunablesError) {
        try writable()
        try TunablesDocument.replace(store, with: defaults)
    }

    /// The value of `key` now and after each change to it (`nil` while the key is absent).
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

    // MARK: Checks

    /// Whether `key` is a tunable: in the schema, the defaults or the current values.
    func isKnown(_ key: String) -> Bool {
        schema?.entries[key] != nil || defaults[key] != nil || get(key) != nil
    }

    /// The checks every single write passes: a known key, then the schema's rules for it.
    func check(key: String, value: StoreValue) throws(TunablesError) {
        guard isKnown(key) else { throw .unknownKey(key) }
        try schema?.check(key: key, value: value)
    }

    /// The checks a whole new set of values passes: every key known and valid, no required key missing.
    func check(replacement values: [String: StoreValue]) throws(TunablesError) {
        for key in values.keys.sorted() where !isKnown(key) { throw .unknownKey(key) }
        try schema?.check(values: values)
    }

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
