import Dispatch
import KeyscopeCore

/// The peer of the store benchmarks: the store a developer writes by hand, as the seed of this project describes it
/// and issue 27 measures Keyscope's against. A `[String: StoreValue]` behind a serial `DispatchQueue`, a subject that
/// sends every change (Combine, or OpenCombine where Combine does not exist, as the core uses), and the key path as
/// a flat string key: `"cart.total"` and `"items[3].title"` are keys of one dictionary, with no nesting to walk, no
/// patch, no old value and no per-path publisher.
///
/// ```swift
/// let seed = SeedStore(["cart.total": 90])
/// seed.set("cart.total", 100)
/// seed.get("cart.total")   // 100
/// ```
/// `@unchecked Sendable`: `values` is only read and written on `queue`, the one thing that serialises access.
final class SeedStore: @unchecked Sendable {
    private var values: [String: StoreValue]
    private let queue = DispatchQueue(label: "keyscope-bench.seed-store")
    /// Every change, as it is made.
    let changes = PassthroughSubject<(key: String, value: StoreValue), Never>()

    init(_ values: [String: StoreValue] = [:]) {
        self.values = values
    }

    func set(_ key: String, _ value: StoreValue) {
        queue.sync { values[key] = value }
        changes.send((key, value))
    }

    func get(_ key: String) -> StoreValue? {
        queue.sync { values[key] }
    }
}
