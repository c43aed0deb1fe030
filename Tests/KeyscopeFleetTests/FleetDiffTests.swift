import Foundation
import KeyscopeCore
import Testing

@testable import KeyscopeFleet

/// `FleetDiff` on its own: the file stores each instance keeps in a folder of its own are compared as one.
@Suite struct FleetDiffTests {
    private func file(_ path: String, scope: Scope = .app) -> StoreID {
        StoreID(scope: scope, storage: .file(url: URL(fileURLWithPath: path)))
    }

    @Test func theSameFileInAnotherFolderIsComparedAsOneStore() throws {
        let (a, b) = (file("/srv/a/live-constants.json"), file("/srv/b/live-constants.json"))
        let diff = FleetDiff(
            a: "shop-1", rootsA: [a: ["height": 44, "same": true]], b: "shop-2",
            rootsB: [b: ["height": 48, "same": true]])
        #expect(diff.pairs == [a: b])
        #expect(diff.onlyInA.isEmpty && diff.onlyInB.isEmpty)
        let differences = try #require(diff.stores[a])
        #expect(differences.map { $0.path.description } == ["height"])
        #expect(differences.first?.a == 44 && differences.first?.b == 48)
        #expect(diff.jsonObject["pairs"] == .object([a.description: .string(b.description)]))
    }

    @Test func anAmbiguousOrDifferentFileIsNotPaired() {
        let a = [
            file("/a/x.json"), file("/a/y/x.json"), file("/a/z.json"), file("/a/w.json", scope: .scenario(id: "s")),
        ]
        let b = [file("/b/x.json"), file("/b/q.json"), file("/b/w.json")]
        let diff = FleetDiff(
            a: "one", rootsA: Dictionary(uniqueKeysWithValues: a.map { ($0, StoreValue.object([:])) }),
            b: "two", rootsB: Dictionary(uniqueKeysWithValues: b.map { ($0, StoreValue.object([:])) }))
        #expect(diff.pairs.isEmpty, "two x.json in A, no z.json in B, and w.json in another scope")
        #expect(diff.onlyInA.count == 4 && diff.onlyInB.count == 3)
    }
}
