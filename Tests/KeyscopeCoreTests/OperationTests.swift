import Foundation
import KeyscopeCore
import Testing

/// The write operations of docs/store.md "Operations" and the patches they record ("Patches").
@Suite struct OperationTests {
    func store(_ root: StoreValue = [:]) -> KeyValueStore {
        KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: root.objectValue!)
    }

    @Test func setCreatesIntermediatesAndRecordsTheOutermostCreatedKey() throws {
        let store = store()
        let change = try #require(try store.apply(.set("a.b.c", 1)))
        #expect(change.patches == [StorePatch(op: .set, keyPath: "a", newValue: ["b": ["c": 1]])])
        #expect(store.get("a.b.c") == 1)
    }

    @Test func setOnExistingKeyRecordsOldAndNew() throws {
        let store = store(["cart": ["total": 90]])
        let change = try #require(try store.apply(.set("cart.total", 100)))
        #expect(change.patches == [StorePatch(op: .set, keyPath: "cart.total", oldValue: 90, newValue: 100)])
    }

    @Test func setOfAnEqualValueStillRecordsAPatch() throws {
        let store = store(["x": 1])
        let change = try #require(try store.apply(.set("x", 1)))
        #expect(change.patches == [StorePatch(op: .set, keyPath: "x", oldValue: 1, newValue: 1)])
    }

    @Test func setAtArrayCountAppendsButNotBeyond() throws {
        let store = store(["items": [1, 2]])
        let change = try #require(try store.apply(.set("items[2]", 3)))
        #expect(change.patches == [StorePatch(op: .set, keyPath: "items[2]", newValue: 3)])
        #expect(store.get("items") == [1, 2, 3])
        #expect(throws: StoreError.self) { try store.apply(.set("items[4]", 5)) }
        let error = try #require(throws: StoreError.self) { try store.apply(.set("items[4]", 5)) }
        #expect(error.code == .outOfRange)
        #expect(store.get("items") == [1, 2, 3])
    }

    @Test(
        arguments: [
            ("name.into.scalar", StoreError.Code.typeMismatch),
            ("items.title", .typeMismatch),
            ("cart[0]", .typeMismatch),
            ("missing[0]", .typeMismatch),
            ("items[5].title", .outOfRange),
        ] as [(String, StoreError.Code)])
    func invalidSetsChangeNothing(path: String, code: StoreError.Code) throws {
        let store = store(["name": "x", "items": [["title": "a"]], "cart": ["total": 1]])
        let before = store.snapshot()
        let error = try #require(throws: StoreError.self) { try store.apply(.set(try StoreKeyPath(parsing: path), 1)) }
        #expect(error.code == code)
        #expect(store.snapshot() == before)
    }

    @Test func rootSetNeedsAnObject() throws {
        let store = store(["a": 1])
        let error = try #require(throws: StoreError.self) { try store.apply(.set(.root, 5)) }
        #expect(error.code == .typeMismatch)
        let change = try #require(try store.replaceAll(with: ["b": 2]))
        #expect(change.patches == [StorePatch(op: .set, keyPath: .root, oldValue: ["a": 1], newValue: ["b": 2])])
    }

    @Test func insertShiftsLaterElements() throws {
        let store = store(["items": ["a", "c"]])
        let change = try #require(try store.apply(.insert("items[1]", "b")))
        #expect(change.patches == [StorePatch(op: .insert, keyPath: "items[1]", newValue: "b")])
        #expect(store.get("items") == ["a", "b", "c"])
        try store.apply(.insert("items[3]", "d"))
        #expect(store.get("items") == ["a", "b", "c", "d"])
        #expect(throws: StoreError.self) { try store.apply(.insert("items[9]", "x")) }
        #expect(throws: StoreError.self) { try store.apply(.insert("items.x", "x")) }
        #expect(throws: StoreError.self) { try store.apply(.insert("nothing[0]", "x")) }
    }

    @Test func removeOfMissingIsANoOpWithoutPatch() throws {
        let store = store(["a": ["b": 1], "items": [1]])
        #expect(try store.apply(.remove("a.zzz")) == nil)
        #expect(try store.apply(.remove("q.r.s")) == nil)
        #expect(try store.apply(.remove("items[3]")) == nil)
        #expect(store.remove("nothing.here"))
    }

    @Test func removeRecordsOldAndShiftsElements() throws {
        let store = store(["a": ["b": 1], "items": [1, 2, 3]])
        let change = try #require(try store.apply(.remove("items[0]")))
        #expect(change.patches == [StorePatch(op: .remove, keyPath: "items[0]", oldValue: 1)])
        #expect(store.get("items") == [2, 3])
        let keyChange = try #require(try store.apply(.remove("a.b")))
        #expect(keyChange.patches == [StorePatch(op: .remove, keyPath: "a.b", oldValue: 1)])
    }

    @Test func removeThroughAScalarOrOfTheRootIsAnError() throws {
        let store = store(["a": 5])
        #expect(throws: StoreError.self) { try store.apply(.remove("a.b")) }
        let error = try #require(throws: StoreError.self) { try store.apply(.remove(.root)) }
        #expect(error.code == .badRequest)
    }

    @Test func mergeRecordsOnlyPreviouslyExistingKeysAsOld() throws {
        let store = store(["user": ["name": "A", "city": "Oslo"]])
        let change = try #require(try store.apply(.merge("user", ["name": "B", "age": 3])))
        #expect(
            change.patches == [
                StorePatch(op: .merge, keyPath: "user", oldValue: ["name": "A"], newValue: ["name": "B", "age": 3])
            ])
        #expect(store.get("user") == ["name": "B", "age": 3, "city": "Oslo"])
        let none = try #require(try store.apply(.merge("user", ["zip": "0150"])))
        #expect(none.patches[0].oldValue == [:])
    }

    @Test func mergeIntoMissingIsRecordedAsSetAtTheOutermostCreatedKey() throws {
        let store = store()
        let change = try #require(try store.apply(.merge("a.b", ["x": 1])))
        #expect(change.patches == [StorePatch(op: .set, keyPath: "a", newValue: ["b": ["x": 1]])])
    }

    @Test func mergeIntoNonObjectIsATypeMismatch() throws {
        let store = store(["a": [1]])
        let error = try #require(throws: StoreError.self) { try store.apply(.merge("a", ["x": 1])) }
        #expect(error.code == .typeMismatch)
    }

    @Test func invalidLiteralPathIsRefusedNotTrapped() throws {
        let store = store()
        let bad: StoreKeyPath = "a..b"
        #expect(bad.parseError?.column == 3)
        let error = try #require(throws: StoreError.self) { try store.apply(.set(bad, 1)) }
        #expect(error.code == .badPath)
        #expect(store.set(bad, 1) == false)
        #expect(store.get(bad) == nil)
        #expect(store.snapshot() == [:])
    }

    @Test func nonThrowingFormsReportRefusalsAndChangeNothing() {
        let store = store(["items": [1]])
        #expect(store.set("items[7]", 1) == false)
        #expect(store.insert("items[7]", 1) == false)
        #expect(store.merge("items", ["a": 1]) == false)
        #expect(store.snapshot() == ["items": [1]])
        #expect(store.set("items[1]", 2))
        #expect(store.get("items") == [1, 2])
    }

    @Test func severalOperationsAreAllOrNothing() throws {
        let store = store(["a": 1])
        #expect(throws: StoreError.self) {
            try store.apply([.set("a", 2), .set("b", 3), .insert("nope[0]", 1)])
        }
        #expect(store.snapshot() == ["a": 1])
        let change = try #require(try store.apply([.set("a", 2), .set("b", 3)]))
        #expect(change.transactionID != nil)
        #expect(change.patches.count == 2)
    }

    @Test func codableValuesRoundTripThroughTheStore() throws {
        struct Item: Codable, Equatable {
            var title: String
            var qty: Int
        }
        let store = store()
        try store.set("basket.first", encoding: Item(title: "Tea", qty: 2))
        #expect(store.get("basket.first.qty") == .integer(2))
        #expect(try store.get("basket.first", as: Item.self) == Item(title: "Tea", qty: 2))
        // An index into a missing array is refused: nothing creates arrays implicitly.
        #expect(throws: StoreError.self) { try store.set("items[0]", encoding: Item(title: "Tea", qty: 2)) }
        #expect(try store.get("nothing", as: Item.self) == nil)
    }
}
