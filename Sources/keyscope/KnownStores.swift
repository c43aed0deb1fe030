import KeyscopeClient
import KeyscopeCore

/// The one message every client command gives for a store the server does not have: the stores it has, and the
/// closest one when the id looks like a misspelling of it.
///
/// ```swift
/// KnownStores.unknown("app/memroy", among: ["app/memory", "scenario:checkout/memory"])
/// // no store "app/memroy" on the server; did you mean app/memory? (its stores: app/memory, scenario:checkout/memory)
/// ```
enum KnownStores {
    /// The ids of the stores in a `snapshot` message, sorted.
    static func ids(in snapshot: StoreValue) -> [String] {
        (snapshot["stores"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }.sorted()
    }

    /// The message for `id`, which is not one of `ids`. A store's former id (a secret mirror's
    /// `app/backend:secrets.<service>`) names the store's id now.
    static func unknown(_ id: String, among ids: [String]) -> String {
        let listed = ids.isEmpty ? "the server has no stores" : "its stores: \(ids.joined(separator: ", "))"
        if let renamed = renamed(id, among: ids) {
            return "no store \"\(id)\" on the server: secret mirrors are app/secrets:<service> stores now; "
                + "did you mean \(renamed)? (\(listed))"
        }
        guard let closest = closest(to: id, among: ids) else { return "no store \"\(id)\" on the server (\(listed))" }
        return "no store \"\(id)\" on the server; did you mean \(closest)? (\(listed))"
    }

    /// The current id of a store `id` names by its former id (``KeyscopeCore/StoreID/current``), when `ids` has it.
    static func renamed(_ id: String, among ids: [String]) -> String? {
        guard let current = StoreID(id)?.current.description, current != id, ids.contains(current) else { return nil }
        return current
    }

    /// The id of `ids` nearest to `id` when it is near enough to be a misspelling: at most a quarter of its
    /// characters (and at least two) added, removed, changed or swapped; or the store's id now when `id` is its
    /// former one.
    static func closest(to id: String, among ids: [String]) -> String? {
        if let renamed = renamed(id, among: ids) { return renamed }
        let limit = max(2, id.count / 4)
        let ranked = ids.map { (id: $0, distance: distance(id, $0)) }.filter { $0.distance <= limit }
        return ranked.min { ($0.distance, $0.id) < ($1.distance, $1.id) }?.id
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and swaps of neighbours.
    static func distance(_ a: String, _ b: String) -> Int {
        let (x, y) = (Array(a), Array(b))
        guard !x.isEmpty else { return y.count }
        guard !y.isEmpty else { return x.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { rows[i][0] = i }
        for j in 0...y.count { rows[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[x.count][y.count]
    }
}
