import KeyscopeCore
import Synchronization
import Testing

@testable import KeyscopeInspector

/// Evicted entries that nobody else holds are refilled by later appends instead of allocating new ones; an entry
/// that anyone still holds is never touched.
@Suite struct SpareEntryTests {
    @Test func evictedEntriesNobodyHoldsAreRefilledWithTheNewChange() throws {
        let hub = startedHub(maxEntries: 20)
        let store = try addStore(hub, "spares")
        for n in 0..<40 { store.set("n", .integer(Int64(n))) }
        // Each line is made (as a client would) before its entry is evicted: a refilled entry must not keep it.
        for seq in hub.logRange! { _ = hub.entry(seq: seq)?.lineBytes }
        #expect(hub.state.withLock { $0.log.spareCount } > 0)
        let sparesBefore = hub.state.withLock { $0.log.spareCount }
        for n in 40..<50 { store.set("n", .integer(Int64(n))) }
        #expect(hub.state.withLock { $0.log.spareCount } < sparesBefore, "the appends did not refill any spare")
        let range = try #require(hub.logRange)
        #expect(range == 32...51)
        for seq in range {
            let entry = try #require(hub.entry(seq: seq))
            #expect(entry.seq == seq)
            #expect(entry.change?.patches.first?.newValue == .integer(Int64(seq - 2)))
            #expect(entry.lineBytes == entry.jsonObject.jsonBytes(sortedKeys: true))
            #expect(entry.estimatedBytes > 0)
        }
    }

    @Test func anEntryAReaderStillHoldsIsNeverRefilled() throws {
        let hub = startedHub(maxEntries: 10)
        let store = try addStore(hub, "held")
        store.set("title", "kept")
        let held = try #require(hub.entry(seq: 2))
        let line = held.lineBytes
        let (_, cursor) = hub.makeCursor()
        store.set("title", "in a frame")
        let frame = entries(drain(cursor))
        for n in 0..<500 { store.set("n", .integer(Int64(n))) }
        _ = hub.logRange  // settles: both are evicted, and spares are refilled many times over
        #expect(hub.entry(seq: 2) == nil)
        #expect(held.seq == 2)
        #expect(held.change?.patches.first?.newValue == "kept")
        #expect(held.lineBytes == line)
        #expect(frame.map(\.seq) == [3])
        #expect(frame.first?.change?.patches.first?.newValue == "in a frame")
    }

    @Test func sparesStayWithinTheirByteLimit() throws {
        let hub = startedHub(maxEntries: 1)
        let store = try addStore(hub, "bounded")
        let large = String(repeating: "z", count: 64 << 10)
        for n in 0..<40 { store.set("s", .string("\(n)\(large)")) }
        _ = hub.logRange
        let (count, bytes) = hub.state.withLock { ($0.log.spareCount, $0.log.spareBytes) }
        // 39 entries of 64 KiB were evicted and none is held: only as many as fit the byte limit are kept.
        #expect(count > 0)
        #expect(count < 39)
        #expect(bytes <= HubLog.spareByteLimit)
        #expect(bytes + (64 << 10) > HubLog.spareByteLimit)
    }
}
