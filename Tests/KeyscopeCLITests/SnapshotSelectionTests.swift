import KeyscopeCore
import Testing

@testable import keyscope

/// `keyscope snapshot --store/--path` picks from the snapshot message.
@Suite struct SnapshotSelectionTests {
    private let snapshot: StoreValue = [
        "type": "snapshot", "seq": 5,
        "stores": [
            ["id": "app/memory", "root": ["cart": ["total": 90, "items": [["title": "Tea"]]], "$beta": true]],
            ["id": "app/userPrefs", "root": ["theme": "dark"]],
        ],
    ]

    @Test func withoutStoreOrPathItIsTheWholeSnapshot() throws {
        #expect(try SnapshotSelection.select(snapshot, store: nil, path: nil) == snapshot)
    }

    @Test func aStoreIsItsRootAndAPathTheValueThere() throws {
        #expect(try SnapshotSelection.select(snapshot, store: "app/userPrefs", path: nil) == ["theme": "dark"])
        #expect(try SnapshotSelection.select(snapshot, store: "app/memory", path: "cart.items[0].title") == "Tea")
        #expect(try SnapshotSelection.select(snapshot, store: "app/memory", path: "$beta") == true)
        #expect(try SnapshotSelection.select(snapshot, store: "app/userPrefs", path: "") == ["theme": "dark"])
    }

    @Test func missingStoresAndPathsAreErrorsThatSayWhatIsThere() {
        func message(_ store: String?, _ path: String?) -> String? {
            do {
                _ = try SnapshotSelection.select(snapshot, store: store, path: path)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(
            message("app/nope", nil) == #"no store "app/nope" on the server (its stores: app/memory, app/userPrefs)"#)
        #expect(message("app/memroy", nil)?.contains("did you mean app/memory?") == true)
        #expect(message(nil, "cart")?.hasPrefix("--path needs --store ID") == true)
        #expect(message("app/memory", "cart.missing") == "nothing at cart.missing in app/memory")
        #expect(message("app/memory", "cart..x")?.contains("column 6") == true)
    }

    @Test func aPathWithoutStoreIsTakenInTheOnlyStore() throws {
        let single: StoreValue = ["type": "snapshot", "stores": [["id": "app/memory", "root": ["a": 1]]]]
        #expect(try SnapshotSelection.select(single, store: nil, path: "a") == 1)
    }
}
