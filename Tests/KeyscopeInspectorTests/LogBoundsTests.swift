import KeyscopeCore
import KeyscopeInspector
import Testing

/// The log keeps the newest entries within both bounds.
@Suite struct LogBoundsTests {
    @Test func theLogIsBoundedByEntries() throws {
        let hub = startedHub(maxEntries: 50)
        let store = try addStore(hub, "e")
        for n in 0..<200 { store.set("n", .integer(Int64(n))) }
        #expect(hub.lastSeq == 201)
        #expect(hub.logRange == 152...201)
        #expect(hub.entry(seq: 151) == nil)
        #expect(hub.entry(seq: 152)?.change?.patches.first?.newValue == 150)
    }

    @Test func theLogIsBoundedByBytes() throws {
        let maxBytes = 4000
        let hub = startedHub(maxBytes: maxBytes)
        let store = try addStore(hub, "b")
        let text = String(repeating: "x", count: 100)
        for n in 0..<300 { store.set("s", .string("\(n)-\(text)")) }
        let range = try #require(hub.logRange)
        #expect(range.upperBound == 301)
        let kept = range.map { hub.entry(seq: $0)! }
        let bytes = kept.reduce(0) { $0 + $1.estimatedBytes }
        #expect(bytes <= maxBytes)
        // It keeps as many as fit: the next older entry would not have.
        #expect(bytes + kept[0].estimatedBytes > maxBytes)
        #expect(kept.count > 10 && kept.count < 40)
    }

    @Test func theNewestEntryStaysEvenWhenItAloneIsOverTheByteBound() throws {
        let hub = startedHub(maxBytes: 100)
        let store = try addStore(hub, "big")
        store.set("s", .string(String(repeating: "y", count: 1000)))
        #expect(hub.logRange == 2...2)
        let (_, cursor) = hub.makeCursor()
        store.set("t", .string(String(repeating: "z", count: 1000)))
        #expect(entries(drain(cursor)).map(\.seq) == [3])
    }

    @Test func theByteEstimateIsCloseToTheEncodedLine() throws {
        let hub = startedHub()
        let store = try addStore(hub, "est")
        store.set("a.b.c", "text with \"quotes\" and \n newlines")
        store.set("list", [1, 22, 333, -4444, ["$key": true, "k": nil]])
        try store.apply([.merge("a", ["x": 1, "y": "two"]), .remove("a.b"), .insert("list[0]", 0)])
        store.set("color", .color(StoreColor("#FF8800")!))
        store.remove("list[1]")
        for seq in 1...hub.lastSeq {
            let entry = try #require(hub.entry(seq: seq))
            let actual = entry.lineBytes.count
            #expect(
                abs(entry.estimatedBytes - actual) <= 24, "seq \(seq): estimated \(entry.estimatedBytes), is \(actual)")
        }
    }
}
