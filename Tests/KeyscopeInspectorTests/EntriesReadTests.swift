import KeyscopeCore
import KeyscopeInspector
import Testing

/// A reader that must not make snapshots (the server's service thread) reads entries, or learns that the next read is
/// a gap or a snapshot, with the cursor left where it was for `next` to make it.
@Suite struct EntriesReadTests {
    @Test func entriesComeAsFromNextAndAGapIsLeftForNext() throws {
        let hub = startedHub(maxEntries: 10)
        let store = try addStore(hub, "lag")
        let (_, cursor) = hub.makeCursor()
        store.set("n", 1)
        guard case .entries(let first)? = cursor.nextEntries() else {
            Issue.record("expected entries")
            return
        }
        #expect(first.map(\.seq) == [2])
        #expect(cursor.nextEntries() == nil)
        for n in 2...30 { store.set("n", .integer(Int64(n))) }
        // The log's tail passed the cursor: nothing read, the cursor where it was, as often as asked.
        #expect(cursor.nextEntries().isSnapshotNeeded)
        #expect(cursor.nextEntries().isSnapshotNeeded)
        #expect(cursor.nextSeq == 3)
        guard case .gap(3, 31, let snapshot)? = cursor.next() else {
            Issue.record("expected gap 3...31")
            return
        }
        #expect(snapshot.store(store.id)?.root == ["n": 30])
        store.set("n", 31)
        guard case .entries(let after)? = cursor.nextEntries() else {
            Issue.record("expected entries after the gap")
            return
        }
        #expect(after.map(\.seq) == [32])
    }

    @Test func aCursorOfAnUnknownSeqNeedsItsSnapshot() throws {
        let hub = startedHub()
        let store = try addStore(hub, "unknown", root: ["a": 1])
        let cursor = hub.makeCursor(resumingAfter: -1)
        #expect(cursor.nextEntries().isSnapshotNeeded)
        guard case .snapshot(let snapshot)? = cursor.next() else {
            Issue.record("expected a snapshot")
            return
        }
        #expect(snapshot.store(store.id)?.root == ["a": 1] && cursor.nextSeq == snapshot.seq + 1)
        #expect(cursor.nextEntries() == nil)
    }
}

extension Optional where Wrapped == EntriesRead {
    fileprivate var isSnapshotNeeded: Bool {
        if case .snapshotNeeded? = self { return true }
        return false
    }
}
