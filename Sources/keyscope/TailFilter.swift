import KeyscopeCodec
import KeyscopeCore

/// Which log entries `keyscope tail` prints: those of the chosen stores (all when none is chosen) and, with a
/// prefix, only the patches at the prefix or below it.
///
/// ```swift
/// let filter = TailFilter(stores: ["app/memory"], prefix: try StoreKeyPath(parsing: "cart"))
/// filter.select(entry)     // the entry with only its patches under cart (cart, cart.total, cart[0]; not cartoon)
/// ```
/// Matching goes by key-path segments, not by text: `cart` covers `cart.total`, `cart[0]` and `cart["a.b"]`, and
/// not `cartoon` or `cart2`. A store event (`registered`, `reset`, `removed`) replaces or ends the whole root, the
/// prefix included, so it passes whenever its store does.
struct TailFilter: Sendable {
    /// The store ids to follow; empty follows every store.
    var stores: Set<String>
    /// The key path whose patches (and those below it) are kept; nil keeps every patch.
    var prefix: StoreKeyPath?

    init(stores: some Sequence<String> = [], prefix: StoreKeyPath? = nil) {
        self.stores = Set(stores)
        self.prefix = prefix
    }

    /// Whether a patch at `path` is at the prefix or below it.
    func matches(_ path: StoreKeyPath) -> Bool {
        prefix?.isPrefix(of: path) ?? true
    }

    /// Whether entries of `store` are followed.
    func follows(_ store: StoreID) -> Bool {
        stores.isEmpty || stores.contains(store.description)
    }

    /// The entry to print: nil when its store is not followed or none of its patches match; otherwise the entry,
    /// a change keeping only its matching patches (in order).
    func select(_ entry: LogEntry) -> LogEntry? {
        guard follows(entry.event.storeID) else { return nil }
        guard prefix != nil, case .change(var change) = entry.event else { return entry }
        change.patches = change.patches.filter { matches($0.keyPath) }
        guard !change.patches.isEmpty else { return nil }
        var kept = entry
        kept.event = .change(change)
        return kept
    }
}
