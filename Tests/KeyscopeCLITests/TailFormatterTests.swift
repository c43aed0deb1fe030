import Foundation
import KeyscopeCodec
import KeyscopeCore
import Testing

@testable import keyscope

/// `keyscope tail` lines: seq, time, store, txn marker, patches; store events in words.
@Suite struct TailFormatterTests {
    private let time = LogTime(rfc3339: "2026-11-21T10:00:00.125000Z")!
    private let fixed: (Date) -> String = { _ in "12:03:04.123" }

    @Test func aSingleWriteIsSeqTimeStoreAndPatch() {
        let change = StoreChange(
            storeID: StoreID("app/memory")!,
            patches: [StorePatch(op: .set, keyPath: "cart.total", oldValue: 99.5, newValue: 104.5)])
        let line = TailFormatter.line(LogEntry(seq: 42, time: time, event: .change(change)), timestamp: fixed)
        #expect(line == "#42 12:03:04.123 app/memory set cart.total 99.5 → 104.5")
    }

    @Test func aTransactionHasItsMarkerAndAllItsPatches() {
        let change = StoreChange(
            storeID: StoreID("scenario:checkout/memory")!,
            patches: [
                StorePatch(op: .set, keyPath: "step", newValue: "pay"),
                StorePatch(op: .remove, keyPath: "coupon", oldValue: "SAVE10"),
                StorePatch(op: .insert, keyPath: "items[2]", newValue: ["title": "Tea"]),
            ],
            transactionID: UUID(uuidString: "1F0C9A2E-5B7D-4C3A-9E2F-0A1B2C3D4E5F"))
        let line = TailFormatter.line(LogEntry(seq: 7, time: time, event: .change(change)), timestamp: fixed)
        #expect(
            line == #"#7 12:03:04.123 scenario:checkout/memory txn 1f0c9a2e set step "pay"; "#
                + #"remove coupon (was "SAVE10"); insert items[2] {"title":"Tea"}"#)
    }

    @Test func storeEventsAreInWords() {
        let id = StoreID("app/userPrefs")!
        let registered = LogEntry(seq: 1, time: time, event: .registered(id, version: "1.4.0", root: ["a": 1]))
        #expect(
            TailFormatter.line(registered, timestamp: fixed)
                == #"#1 12:03:04.123 app/userPrefs registered, version 1.4.0, {"a":1}"#)
        let reset = LogEntry(seq: 2, time: time, event: .reset(id, version: "2.0.0"))
        #expect(
            TailFormatter.line(reset, timestamp: fixed) == "#2 12:03:04.123 app/userPrefs reset to {} for version 2.0.0"
        )
        let removed = LogEntry(seq: 3, time: time, event: .removed(id))
        #expect(TailFormatter.line(removed, timestamp: fixed) == "#3 12:03:04.123 app/userPrefs removed")
    }

    @Test func theDefaultTimeIsLocalWallClockWithMilliseconds() {
        let change = StoreChange(
            storeID: StoreID("app/memory")!, patches: [StorePatch(op: .remove, keyPath: "x", oldValue: 1)])
        let line = TailFormatter.line(LogEntry(seq: 5, time: time, event: .change(change)))
        #expect(line.wholeMatch(of: /#5 \d\d:\d\d:00\.125 app\/memory remove x \(was 1\)/) != nil, "\(line)")
    }

    @Test func gapNoticesNameTheSkippedEntries() {
        #expect(TailFormatter.gapNotice(from: 5, to: 9).contains("entries #5…#9 were not sent"))
        #expect(TailFormatter.gapNotice(from: 5, to: 5).contains("entry #5 was not sent"))
    }
}
