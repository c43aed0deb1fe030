public import KeyscopeCodec
public import KeyscopeCore

extension MuteRules {
    /// `change` as it looks on the masked state (see the type's notes), or `nil` when none of its patches is left.
    ///
    /// - A patch strictly below a muted path is dropped: the placeholder above it does not change.
    /// - A patch at or above one keeps its place; its `old` and `new` are masked as values found at its path (so a
    ///   patch at a muted path goes from placeholder to placeholder), and so are a merge's members, each at its key.
    /// - A merge into a muted object becomes a `set` from placeholder to placeholder: the masked state has the
    ///   placeholder, not an object, there.
    ///
    /// ```swift
    /// let rules = try MuteRules(patterns: ["user.card"])
    /// rules.mask(StoreChange(storeID: id, patches: [StorePatch(op: .set, keyPath: "user.card.cvc", newValue: 123)]))
    /// // nil: the placeholder at user.card does not change
    /// ```
    /// The store itself is not looked at: the event form of `mask` leaves out the events of muted stores.
    public func mask(_ change: StoreChange) -> StoreChange? {
        maskReporting(change)?.change
    }

    /// ``mask(_:)-(StoreChange)``, and whether the result is `change` itself (no patch lay at, above or below a
    /// muted path), so that a line already encoded for it can be used as it is.
    func maskReporting(_ change: StoreChange) -> (change: StoreChange, unchanged: Bool)? {
        guard !patterns.isEmpty else { return (change, true) }
        var patches: [StorePatch] = []
        patches.reserveCapacity(change.patches.count)
        var unchanged = true
        for patch in change.patches {
            guard let masked = mask(patch) else {
                unchanged = false
                continue
            }
            patches.append(masked.patch)
            unchanged = unchanged && !masked.touched
        }
        guard !patches.isEmpty else { return nil }
        if unchanged { return (change, true) }
        return (
            StoreChange(
                storeID: change.storeID, patches: patches, transactionID: change.transactionID, origin: change.origin),
            false
        )
    }

    /// The event form of ``maskReporting(_:)-(StoreChange)``: `nil` when the event is left out.
    func maskReporting(_ event: LogEvent) -> (event: LogEvent, unchanged: Bool)? {
        guard !mutes(store: event.storeID) else { return nil }
        switch event {
        case .change(let change):
            return maskReporting(change).map { (.change($0.change), $0.unchanged) }
        case .registered(let id, let version, let root):
            guard !patterns.isEmpty else { return (event, true) }
            return (.registered(id, version: version, root: mask(root: root)), false)
        case .reset, .removed:
            return (event, true)
        }
    }

    /// A log event as a muted recording has it, or `nil` when it is left out: every event of a muted store, and
    /// changes masked to nothing. A `registered` root is masked like a header's.
    public func mask(_ event: LogEvent) -> LogEvent? {
        maskReporting(event)?.event
    }

    /// One patch masked (`touched` when a pattern reaches its path or below), or `nil` when it lies strictly below
    /// a muted path.
    private func mask(_ patch: StorePatch) -> (patch: StorePatch, touched: Bool)? {
        var alive = Array(patterns.indices)
        for (depth, segment) in patch.keyPath.segments.enumerated() {
            // A muted path above the patch's own: the placeholder there stays as it is.
            if isMuted(alive, depth: depth) { return nil }
            alive = step(alive, segment, depth: depth)
            if alive.isEmpty { return (patch, false) }
        }
        let depth = patch.keyPath.segments.count
        // The masked state has the placeholder there, not an object to merge into.
        if patch.op == .merge, isMuted(alive, depth: depth) {
            let placeholder = Self.placeholder
            return (
                StorePatch(op: .set, keyPath: patch.keyPath, oldValue: placeholder, newValue: placeholder), true
            )
        }
        // A merge's `old` and `new` are objects: masked as a value at its path, each member is masked at its key.
        var masked = patch
        masked.oldValue = patch.oldValue.map { mask($0, alive: alive, depth: depth) }
        masked.newValue = patch.newValue.map { mask($0, alive: alive, depth: depth) }
        return (masked, true)
    }
}
