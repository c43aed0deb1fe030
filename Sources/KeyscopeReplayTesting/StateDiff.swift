public import KeyscopeCore

/// The differences between an expected state and an actual one, path by path, as people read them:
///
/// ```swift
/// let diff = StateDiff(expected: ["app/memory": ["cart": ["total": 100]]],
///                      actual: ["app/memory": ["cart": ["total": 90]], "app/userPrefs": [:]])
/// print(diff.description(limit: 20))
/// // app/memory: cart.total: expected 100, got 90
/// // app/userPrefs: extra store, got {}
/// ```
/// The top level of a state is store id → root, so its keys are reported as stores; below them, paths are canonical
/// key paths (docs/store.md). Values are compact JSON, cut at 80 characters.
public struct StateDiff: Sendable, Hashable, CustomStringConvertible {
    /// One line per difference, in key order (array elements in index order).
    public let differences: [String]

    /// Compares two states (objects of store id → root); any two values work, the top level counts as stores.
    public init(expected: StoreValue, actual: StoreValue) {
        var lines: [String] = []
        if case .object(let expectedStores) = expected, case .object(let actualStores) = actual {
            for id in Set(expectedStores.keys).union(actualStores.keys).sorted() {
                switch (expectedStores[id], actualStores[id]) {
                case (let want?, nil): lines.append("\(id): missing store, expected \(Self.short(want))")
                case (nil, let got?): lines.append("\(id): extra store, got \(Self.short(got))")
                case (let want?, let got?): Self.compare(want, got, at: .root, store: id, into: &lines)
                case (nil, nil): break
                }
            }
        } else {
            Self.compare(expected, actual, at: .root, store: nil, into: &lines)
        }
        differences = lines
    }

    /// Whether the states are equal.
    public var isEmpty: Bool { differences.isEmpty }

    /// Every difference, one per line.
    public var description: String { description(limit: .max) }

    /// At most `limit` differences, one per line, then `… and N more` for the rest.
    public func description(limit: Int) -> String {
        guard differences.count > limit else { return differences.joined(separator: "\n") }
        let shown = differences.prefix(max(0, limit))
        return (shown + ["… and \(differences.count - shown.count) more"]).joined(separator: "\n")
    }

    private static func compare(
        _ expected: StoreValue, _ actual: StoreValue, at path: StoreKeyPath, store: String?, into lines: inout [String]
    ) {
        guard expected != actual else { return }
        let place = path.isRoot ? (store.map { "\($0): (root)" } ?? "(root)") : label(store, path)
        switch (expected, actual) {
        case (.object(let want), .object(let got)):
            for key in Set(want.keys).union(got.keys).sorted() {
                member(want[key], got[key], at: path.appending(key: key), store: store, into: &lines)
            }
        case (.array(let want), .array(let got)):
            if want.count != got.count {
                lines.append("\(place): expected \(want.count) elements, got \(got.count)")
            }
            for index in 0..<max(want.count, got.count) {
                // `.none`, not `nil`: StoreValue is ExpressibleByNilLiteral, and `nil` would read as `.null`.
                let wanted = index < want.count ? Optional(want[index]) : .none
                let found = index < got.count ? Optional(got[index]) : .none
                member(wanted, found, at: path.appending(index: index), store: store, into: &lines)
            }
        default:
            lines.append("\(place): expected \(short(expected)), got \(short(actual))")
        }
    }

    /// A key or element that either side may lack.
    private static func member(
        _ expected: StoreValue?, _ actual: StoreValue?, at path: StoreKeyPath, store: String?,
        into lines: inout [String]
    ) {
        switch (expected, actual) {
        case (let value?, nil): lines.append("\(label(store, path)): missing, expected \(short(value))")
        case (nil, let value?): lines.append("\(label(store, path)): unexpected \(short(value))")
        case (let want?, let got?): compare(want, got, at: path, store: store, into: &lines)
        case (nil, nil): break
        }
    }

    private static func label(_ store: String?, _ path: StoreKeyPath) -> String {
        (store.map { "\($0): " } ?? "") + path.description
    }

    private static func short(_ value: StoreValue) -> String {
        let text = value.jsonText(sortedKeys: true)
        return text.count > 80 ? String(text.prefix(77)) + "..." : text
    }
}
