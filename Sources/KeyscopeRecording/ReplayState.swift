public import KeyscopeCodec
public import KeyscopeCore

/// The state of every store of a recording at one `seq`: each store's id, version and root, in registration order
/// (the header's order, then as `registered` events add stores). Built from a header, moved forward one event at a
/// time with ``apply(_:line:)``.
///
/// ```swift
/// let reader = try RecordingReader(contentsOf: url)
/// var state = ReplayState(header: reader.header)          // seq 0
/// while let entry = try reader.next() {
///     try state.apply(entry, line: reader.line)
/// }
/// FileHandle.standardOutput.write(Data(state.jsonBytes))   // what `keyscope state FILE` prints
/// ```
/// A change applies whole or not at all: its store must be in the state, and each patch must apply with its `old`
/// equal to the state's value (presence included), else ``RecordingError/Code/patchDoesNotApply`` naming the patch
/// and its path, and the state is as before. `registered` adds a store (an error if it is there already), `reset`
/// sets its root to `{}` and its version, `removed` drops it.
public struct ReplayState: Sendable, Hashable {
    /// One store: id, semantic version and root (always an object), as a header lists them.
    public typealias Store = RecordingHeader.Store

    /// Every store, in registration order.
    public private(set) var stores: [Store] = []
    /// Where each store is in ``stores``: one lookup per change, and the change's patches are applied in place.
    private var positions: [StoreID: Int] = [:]

    /// The header's stores, in the header's order: the state at seq 0.
    public init(header: RecordingHeader) {
        for store in header.stores { add(store) }
    }

    /// The ids in registration order.
    public var storeIDs: [StoreID] { stores.map(\.id) }

    /// The store with `id`, if it is in the state.
    public subscript(id: StoreID) -> Store? { positions[id].map { stores[$0] } }

    /// The number of stores.
    public var count: Int { stores.count }

    /// One JSON object: store id → root. This is what `keyscope state` prints.
    public var value: StoreValue {
        var object: [String: StoreValue] = [:]
        object.reserveCapacity(stores.count)
        for store in stores { object[store.id.description] = store.root }
        return .object(object)
    }

    /// The canonical bytes of ``value`` (compact JSON, sorted keys: `value.jsonText(sortedKeys: true)`) followed by
    /// `\n`: exactly what `keyscope state FILE` prints.
    public var jsonBytes: [UInt8] {
        JSONBuffer.withScratch { buffer in
            value.appendJSON(to: &buffer, sortedKeys: true)
            buffer.append(UInt8(ascii: "\n"))
            return buffer.bytes
        }
    }

    /// The SHA-256 of ``jsonBytes``: the state digest (`keyscope state FILE | sha256sum` prints the same hex).
    public var digest: SHA256.Digest { SHA256.hash(jsonBytes) }

    /// Moves the state forward by one event of the recording, whole or not at all.
    /// - Parameter line: the event's line in the file, for the error (the reader's ``RecordingReader/line``).
    /// - Throws: ``RecordingError/Code/patchDoesNotApply``; the state is unchanged then.
    public mutating func apply(_ entry: LogEntry, line: Int? = nil) throws(RecordingError) {
        switch entry.event {
        case .change(let change):
            try apply(change, line: line)
        case .registered(let id, let version, let root):
            guard positions[id] == nil else {
                throw RecordingError(
                    .patchDoesNotApply, line: line,
                    "store \(id) is registered while it is already in the state (it must be removed first)")
            }
            guard root.objectValue != nil else {
                throw RecordingError(
                    .patchDoesNotApply, line: line, "the root of store \(id) must be an object, not \(root.typeName)")
            }
            add(Store(id: id, version: version, root: root))
        case .reset(let id, let version):
            guard let position = positions[id] else {
                throw RecordingError(
                    .patchDoesNotApply, line: line, "store \(id) is reset but is not in the state (never registered)")
            }
            stores[position].root = .emptyObject
            stores[position].version = version
        case .removed(let id):
            guard let position = positions.removeValue(forKey: id) else {
                throw RecordingError(
                    .patchDoesNotApply, line: line, "store \(id) is removed but is not in the state (never registered)")
            }
            stores.remove(at: position)
            for later in position..<stores.count { positions[stores[later].id] = later }
        }
    }

    private mutating func add(_ store: Store) {
        positions[store.id] = stores.count
        stores.append(store)
    }

    /// Applies the patches in place (no copy of the root); when one fails, those before it are undone with their
    /// inverses, which always apply to the state they left (VALUES.md: every patch is invertible from its fields).
    private mutating func apply(_ change: StoreChange, line: Int?) throws(RecordingError) {
        let id = change.storeID
        guard let position = positions[id] else {
            throw RecordingError(
                .patchDoesNotApply, line: line,
                "a change to store \(id), which is not in the state (not in the header, or removed)")
        }
        for (index, patch) in change.patches.enumerated() {
            do {
                try stores[position].root.apply(patch: patch)
            } catch {
                let undo = StoreChange(storeID: id, patches: Array(change.patches[..<index])).inverted()
                for inverse in undo.patches {
                    // Cannot fail: each inverse meets exactly the value its patch left.
                    try? stores[position].root.apply(patch: inverse)
                }
                let count = change.patches.count
                throw RecordingError(
                    .patchDoesNotApply, line: line,
                    "patch \(index + 1)\(count > 1 ? " of \(count)" : "") (\(patch.op.rawValue) \"\(patch.keyPath)\") "
                        + "does not apply to store \(id): \(error.message)")
            }
        }
    }
}
