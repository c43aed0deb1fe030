import Foundation
import KeyscopeCore
import Testing

@testable import keyscope

/// The large catalog behind `serve --demo --demo-keys N`: its exact size, its variety of values, its determinism.
@Suite("Large catalog")
struct LargeCatalogTests {
    @Test("the catalog has exactly the keys asked for", arguments: [0, 1, 2, 7, 40, 41, 1000, 12_345, 100_000])
    func exactSize(keys: Int) {
        let root = LargeCatalog.root(keys: keys, seed: 5)
        #expect(LargeCatalog.keyCount(root) == keys)
        #expect(root.objectValue != nil, "the root is an object")
    }

    @Test("a key is every member and element at any depth")
    func keyCounting() {
        let value: StoreValue = ["a": 1, "b": ["x": [1, 2, ["y": .null]]], "c": []]
        // a, b, c; b.x; b.x[0], b.x[1], b.x[2]; b.x[2].y
        #expect(LargeCatalog.keyCount(value) == 8)
        #expect(LargeCatalog.keyCount(.string("leaf")) == 0)
        #expect(LargeCatalog.truncated(value, keeping: 3) == ["a": 1, "b": ["x": []]])
        #expect(LargeCatalog.truncated(value, keeping: 5) == ["a": 1, "b": ["x": [1, 2]]])
    }

    @Test("products hold every kind of value docs/store.md has")
    func variety() throws {
        let root = LargeCatalog.root(keys: 5000, seed: 9)
        let products = try #require(root["products"]?.objectValue)
        #expect(products.count > 50, "a large object to expand lazily: \(products.count) products")
        #expect(products.keys.sorted().first == "p000001")
        var kinds = Set<String>()
        func collect(_ value: StoreValue) {
            kinds.insert(value.typeName)
            value.objectValue?.values.forEach(collect)
            value.arrayValue?.forEach(collect)
        }
        collect(root)
        #expect(
            kinds.isSuperset(of: ["object", "array", "string", "integer", "number", "bool", "null", "color", "url"]))
        let first = try #require(products["p000001"])
        #expect(first["url"] == .url(URL(string: "https://shop.example.com/p/p000001")!))
        #expect(first["price"]?.typeName == "number")
        #expect(first["stock"]?.typeName == "integer")
        #expect(first["color"]?.typeName == "color")
    }

    @Test("the same seed makes the same catalog; another seed another")
    func deterministic() {
        let a = LargeCatalog.root(keys: 3000, seed: 1)
        #expect(a == LargeCatalog.root(keys: 3000, seed: 1))
        #expect(a != LargeCatalog.root(keys: 3000, seed: 2))
    }

    @Test("the demo service registers it with its content, and only when asked")
    func registered() throws {
        let demo = try DemoHarness(catalogKeys: 2500)
        defer { demo.remove() }
        let store = try #require(demo.registry.store(LargeCatalog.storeID))
        #expect(LargeCatalog.keyCount(store.snapshot()) == 2500)
        #expect(demo.events().first == "registered \(LargeCatalog.storeID)", "registered before the app's stores")
        #expect(demo.changes().allSatisfy { $0.storeID != LargeCatalog.storeID }, "filled at registration")
        demo.service.step()
        #expect(demo.service.changes > 0)

        let plain = try DemoHarness()
        defer { plain.remove() }
        #expect(plain.registry.store(LargeCatalog.storeID) == nil)
    }
}
