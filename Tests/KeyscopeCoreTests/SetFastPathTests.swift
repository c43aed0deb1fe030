import Dispatch
import KeyscopeGenerators
import KeyscopeTesting
import Synchronization
import Testing

@testable import KeyscopeCore

/// The write path's fast steps against the general ones: `setIfPresent` (a set whose parent exists) against
/// `setValue`'s walk, key-path literals found by their address, and the hashes of paths.
@Suite("set fast path, literal paths and path hashes")
struct SetFastPathTests {
    static let state: StoreValue = [
        "cart": ["total": 90, "items": [["sku": "A", "qty": 1], ["sku": "B", "qty": 2]], "note": nil],
        "tags": ["a", "b"],
        "n": 1,
    ]

    /// Sets `value` at `path` both ways: where the fast path takes the set, the state and the old value are the
    /// general walk's; where it does not, it changed nothing. Returns whether it took it.
    @discardableResult
    private static func check(
        _ path: StoreKeyPath, _ value: StoreValue, on state: StoreValue,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        var general = state
        let reference = Result { () throws(StoreError) in
            try general.setValue(path, value, createIntermediates: true)
        }
        var fast = state
        guard let old = fast.setIfPresent(path.segments, value) else {
            #expect(fast == state, "the fast path changed the state for \(path)", sourceLocation: sourceLocation)
            return false
        }
        guard case .success(.replaced(let expectedOld)) = reference else {
            Issue.record("fast path set \(path), the general walk: \(reference)", sourceLocation: sourceLocation)
            return true
        }
        #expect(old == expectedOld, "\(path)", sourceLocation: sourceLocation)
        #expect(fast == general, "\(path)", sourceLocation: sourceLocation)
        return true
    }

    @Test(
        "a set on an existing parent takes the fast path, to the general walk's state and old value",
        arguments: [
            "cart.total", "cart.coupon", "cart.note", "cart.items[1].qty", "cart.items[0].new", "tags[0]",
            "tags[2]", "n", "new",
        ] as [StoreKeyPath])
    func fitting(_ path: StoreKeyPath) {
        #expect(Self.check(path, ["x": [1, 2]], on: Self.state))
        #expect(Self.check(path, 7, on: Self.state))
    }

    @Test(
        "a set the general walk must create or refuse leaves the state alone on the fast path",
        arguments: [
            "", "nothing.here", "cart.total.x", "tags[3]", "tags.x", "cart[0]", "cart.items[2].qty",
            "n[0]", "cart.items.x",
        ] as [StoreKeyPath])
    func notFitting(_ path: StoreKeyPath) {
        #expect(!Self.check(path, 7, on: Self.state))
    }

    @Test("random paths and values on random states: the fast path agrees with the general walk")
    func randomPaths() {
        var rng = SplitMix64(seed: 2027)
        var taken = 0
        for _ in 0..<3000 {
            let state: StoreValue = .object(["a": StoreGen.randomValue(depth: 3, width: 3, using: &rng)])
            var path = StoreGen.randomKeyPath(using: &rng)
            // Mostly paths into the state (under "a", short indexes), so that both outcomes come up often.
            if Bool.random(using: &rng) {
                path = StoreKeyPath(
                    segments: [.key("a")]
                        + path.segments.prefix(3).map { segment in
                            if case .index(let index) = segment { return .index(index % 3) }
                            return segment
                        })
            }
            let value = StoreGen.randomValue(depth: 2, width: 2, using: &rng)
            if Self.check(path, value, on: state) { taken += 1 }
        }
        #expect(taken > 100, "only \(taken) sets took the fast path: the test no longer exercises it")
    }

    @Test("the store's set, apply and transaction record the old value the fast path found")
    func storePatches() throws {
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory), root: Self.state.objectValue!)
        let change = try store.apply(.set("cart.items[1].qty", 3))
        #expect(change?.patches == [StorePatch(op: .set, keyPath: "cart.items[1].qty", oldValue: 2, newValue: 3)])
        let added = try store.apply(.set("tags[2]", "c"))
        #expect(added?.patches == [StorePatch(op: .set, keyPath: "tags[2]", newValue: "c")])
        #expect(store.set("cart.total", 100))
        #expect(store.get("cart.total") == 100)
        try store.transaction { tx in
            try tx.set("cart.total", 110)
            try tx.set("cart.total", 120)
        }
        #expect(store.get("cart.total") == 120)
    }

    // MARK: Literals

    @Test("a literal parses as its text does, every time, whichever call site spells it")
    func literals() throws {
        for _ in 0..<3 {
            let first: StoreKeyPath = "items[3].title"
            let second: StoreKeyPath = "items[3].title"
            #expect(first.segments == [.key("items"), .index(3), .key("title")])
            #expect(first == second)
            #expect(first == (try StoreKeyPath(parsing: "items[3].title")))
            let one: StoreKeyPath = "a"  // a one-scalar literal: no bytes in the image to point at
            #expect(one.segments == [.key("a")])
            let root: StoreKeyPath = ""
            #expect(root.isRoot)
            let quoted: StoreKeyPath = #"prefs["com.app.theme"]"#
            #expect(quoted.segments == [.key("prefs"), .key("com.app.theme")])
        }
    }

    @Test("an invalid literal keeps its error on every call (errors are not cached)")
    func invalidLiterals() {
        for _ in 0..<3 {
            let bad: StoreKeyPath = "a..b"
            #expect(bad.parseError?.column == 3)
            #expect(bad.segments.isEmpty)
            let single: StoreKeyPath = "."
            #expect(single.parseError?.column == 1)
        }
    }

    @Test("threads using the same literals at once each get the right segments")
    func literalsAcrossThreads() {
        let mismatches = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<2000 {
                let a: StoreKeyPath = "cart.total"
                let b: StoreKeyPath = "items[12].title"
                if a.segments != [.key("cart"), .key("total")] { mismatches.add(1, ordering: .relaxed) }
                if b.segments != [.key("items"), .index(12), .key("title")] { mismatches.add(1, ordering: .relaxed) }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
    }

    @Test("texts of every length up to the cache's longest, differing in one byte, parse to their own segments")
    func shortTexts() throws {
        var texts: [String] = []
        for length in 1...64 {
            for last in ["a", "b", "c"] { texts.append(String(repeating: "k", count: length - 1) + last) }
            if length > 2 { texts.append("b" + String(repeating: "k", count: length - 1)) }
        }
        for _ in 0..<2 {
            for text in texts { #expect(try StoreKeyPath(parsing: text).segments == [.key(text)]) }
        }
        for index in 0..<3000 {
            #expect(try StoreKeyPath(parsing: "k\(index % 1500)").segments == [.key("k\(index % 1500)")])
        }
    }

    // MARK: Hashes

    @Test("equal paths hash alike; a key and an index of the same digits stay different")
    func hashes() throws {
        let parsed = try StoreKeyPath(parsing: "items[1].title")
        let built = StoreKeyPath(segments: [.key("items"), .index(1), .key("title")])
        #expect(parsed.hashValue == built.hashValue)
        #expect(Set([StoreKeyPath.Segment.key("1"), .index(1)]).count == 2)
        let paths: Set<StoreKeyPath> = ["a[1]", #"a["1"]"#, "a.b", "a..b", "a...b"]
        #expect(paths.count == 5)
        #expect(paths.contains(StoreKeyPath(stringLiteral: "a..b")))
    }
}
