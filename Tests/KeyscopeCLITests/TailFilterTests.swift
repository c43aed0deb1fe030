import Foundation
import KeyscopeCodec
import KeyscopeCore
import Testing

@testable import keyscope

/// `--store` and `--prefix`: prefixes match by key-path segments, not by text.
@Suite struct TailFilterTests {
    private let memory = StoreID("app/memory")!
    private let time = LogTime(rfc3339: "2026-11-21T10:00:00.125000Z")!

    private func entry(_ paths: [StoreKeyPath], store: StoreID? = nil) -> LogEntry {
        let patches = paths.map { StorePatch(op: .set, keyPath: $0, newValue: 1) }
        return LogEntry(seq: 1, time: time, event: .change(StoreChange(storeID: store ?? memory, patches: patches)))
    }

    private func paths(_ entry: LogEntry?) -> [String]? {
        guard case .change(let change)? = entry?.event else { return nil }
        return change.patches.map(\.keyPath.description)
    }

    @Test(arguments: [
        ("cart", true), ("cart.total", true), ("cart[0]", true), (#"cart["a.b"]"#, true), ("cart.items[2].qty", true),
        ("cartoon", false), ("cart2", false), ("car", false), ("items", false), ("", false),
    ])
    func aPrefixMatchesItselfAndWhatIsBelowIt(path: String, matches: Bool) throws {
        let filter = TailFilter(prefix: "cart")
        #expect(filter.matches(try StoreKeyPath(parsing: path)) == matches)
    }

    @Test func anIndexPrefixMatchesThatElementOnly() throws {
        let filter = TailFilter(prefix: "items[1]")
        #expect(filter.matches("items[1].title"))
        #expect(!filter.matches("items[10]"))
        #expect(!filter.matches("items"))
    }

    @Test func theRootPrefixAndNoPrefixMatchEverything() {
        #expect(TailFilter(prefix: .root).matches("anything.at[0]"))
        #expect(TailFilter().matches(.root))
    }

    @Test func aChangeKeepsOnlyItsMatchingPatchesInOrder() {
        let filter = TailFilter(prefix: "cart")
        #expect(
            paths(filter.select(entry(["cart.total", "cartoon", "cart[0]", "user"]))) == ["cart.total", "cart[0]"])
        #expect(filter.select(entry(["cartoon", "user"])) == nil)
    }

    @Test func storesAreFilteredByIdAndNoStoresMeansAll() {
        let other = StoreID("scenario:checkout/memory")!
        let filter = TailFilter(stores: ["scenario:checkout/memory", "app/userPrefs"])
        #expect(filter.select(entry(["a"], store: memory)) == nil)
        #expect(paths(filter.select(entry(["a"], store: other))) == ["a"])
        #expect(paths(TailFilter().select(entry(["a"], store: memory))) == ["a"])
    }

    @Test func storeEventsPassWithTheirStoreWhateverThePrefix() {
        let filter = TailFilter(stores: ["app/memory"], prefix: "cart")
        let registered = LogEntry(seq: 2, time: time, event: .registered(memory, version: "1.0.0", root: [:]))
        #expect(filter.select(registered) == registered)
        let removed = LogEntry(seq: 3, time: time, event: .removed(StoreID("app/userPrefs")!))
        #expect(filter.select(removed) == nil)
    }
}
