import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeRecording
import Testing

/// Replaying events into a state: whole changes or nothing, store events, the state's JSON.
@Suite struct ReplayStateTests {
    private let memory = StoreID("app/memory")!
    private let checkout = StoreID("scenario:checkout/memory")!

    private func state(_ lines: [String], upTo seq: Int64? = nil) throws -> ReplayState {
        try RecordingReader(bytes: TestLog.bytes([TestLog.header] + lines)).replay(upTo: seq).state
    }

    @Test func theHeaderIsTheStateAtSeq0() throws {
        let replayed = try state([TestLog.setTotal(1, from: 90, to: 100)], upTo: 0)
        #expect(replayed.value == ["app/memory": ["cart": ["total": 90]]])
        #expect(replayed[memory]?.version == SemanticVersion(1, 4, 0))
    }

    @Test func anyIntermediateSeqCanBeAskedFor() throws {
        let lines = (1...5).map { TestLog.setTotal($0, from: 90 + $0 - 1, to: 90 + $0) }
        for seq in 0...5 {
            #expect(
                try state(lines, upTo: Int64(seq)).value == [
                    "app/memory": ["cart": ["total": .integer(Int64(90 + seq))]]
                ])
        }
        #expect(throws: RecordingError.self) { try state(lines, upTo: 6) }
        #expect(throws: RecordingError.self) { try state(lines, upTo: -1) }
    }

    @Test func aSeqBeyondTheEndIsOutOfRange() {
        #expect {
            try state([TestLog.setTotal(1, from: 90, to: 100)], upTo: 2)
        } throws: { error in
            (error as? RecordingError)?.code == .outOfRange
        }
    }

    @Test func aBadLineAfterTheAskedSeqStillFailsTheReplay() {
        let lines = [TestLog.setTotal(1, from: 90, to: 100), TestLog.setTotal(2, from: 42, to: 1)]
        #expect {
            try state(lines, upTo: 1)
        } throws: { error in
            (error as? RecordingError)?.code == .patchDoesNotApply && (error as? RecordingError)?.line == 3
        }
    }

    @Test func aPatchWhoseOldDiffersNamesPatchIndexAndPath() {
        let txn = "\"0A1B2C3D-4E5F-4A6B-9C7D-8E9F0A1B2C3D\""
        let patches = #"{"new":"x","op":"set","path":"cart.note"},{"new":5,"old":91,"op":"set","path":"cart.total"}"#
        let error = TestLog.error(TestLog.bytes([TestLog.header, TestLog.change(1, patches, txn: txn)]))
        #expect(error?.code == .patchDoesNotApply)
        #expect(error?.line == 2)
        #expect(error?.message.contains("patch 2 of 2") == true)
        #expect(error?.message.contains("\"cart.total\" is 90, the patch expected 91") == true)
    }

    @Test func presenceCountsForOld() {
        // `old` absent means nothing was there; cart.total is there.
        let absentOld = TestLog.change(1, #"{"new":5,"op":"set","path":"cart.total"}"#)
        #expect(TestLog.error(TestLog.bytes([TestLog.header, absentOld]))?.code == .patchDoesNotApply)
        // `old` present for a key that is not there.
        let presentOld = TestLog.change(1, #"{"new":5,"old":null,"op":"set","path":"cart.note"}"#)
        #expect(TestLog.error(TestLog.bytes([TestLog.header, presentOld]))?.message.contains("absent") == true)
    }

    @Test func aChangeIsAppliedWholeOrNotAtAll() throws {
        var replayed = try state([])
        let before = replayed
        let change = StoreChange(
            storeID: memory,
            patches: [
                StorePatch(op: .set, keyPath: "cart.total", oldValue: 90, newValue: 100),
                StorePatch(op: .merge, keyPath: "cart", oldValue: [:], newValue: ["note": "hi"]),
                StorePatch(op: .insert, keyPath: "cart.items[0]", newValue: "tea"),
            ], transactionID: UUID())
        let entry = LogEntry(seq: 1, time: LogTime(rfc3339: "2026-11-21T10:00:01.000000Z")!, event: .change(change))
        #expect(throws: RecordingError.self) { try replayed.apply(entry, line: 2) }
        #expect(replayed == before)
    }

    @Test func storeEventsAddResetAndDropStores() throws {
        let lines = [
            TestLog.event(
                1, "registered", store: "scenario:checkout/memory", #""root":{"step":"cart"},"version":"1.0.0""#),
            TestLog.change(
                2, #"{"new":"address","old":"cart","op":"set","path":"step"}"#, store: "scenario:checkout/memory"),
            TestLog.event(3, "reset", store: "app/memory", #""version":"2.0.0""#),
        ]
        let afterReset = try state(lines)
        #expect(afterReset.storeIDs == [memory, checkout])
        #expect(afterReset.value == ["app/memory": [:], "scenario:checkout/memory": ["step": "address"]])
        #expect(afterReset[memory]?.version == SemanticVersion(2, 0, 0))
        let removed = try state(lines + [TestLog.event(4, "removed", store: "scenario:checkout/memory")])
        #expect(removed.storeIDs == [memory])
        let again = try state(
            lines + [
                TestLog.event(4, "removed", store: "scenario:checkout/memory"),
                TestLog.event(5, "registered", store: "scenario:checkout/memory", #""root":{},"version":"1.0.0""#),
            ])
        #expect(again[checkout]?.root == [:])
    }

    @Test func storeEventsThatDoNotFitAreErrors() {
        let twice = TestLog.event(1, "registered", store: "app/memory", #""root":{},"version":"1.0.0""#)
        #expect(TestLog.error(TestLog.bytes([TestLog.header, twice]))?.code == .patchDoesNotApply)
        let unknownReset = TestLog.event(1, "reset", store: "app/userPrefs", #""version":"2.0.0""#)
        #expect(TestLog.error(TestLog.bytes([TestLog.header, unknownReset]))?.code == .patchDoesNotApply)
        let unknownRemove = TestLog.event(1, "removed", store: "app/userPrefs")
        #expect(TestLog.error(TestLog.bytes([TestLog.header, unknownRemove]))?.code == .patchDoesNotApply)
        let unknownStore = TestLog.change(1, #"{"new":1,"op":"set","path":"x"}"#, store: "app/userPrefs")
        let error = TestLog.error(TestLog.bytes([TestLog.header, unknownStore]))
        #expect(error?.code == .patchDoesNotApply)
        #expect(error?.line == 2)
    }

    @Test func theStateJSONIsCanonicalWithANewline() throws {
        let replayed = try state([
            TestLog.change(1, ##"{"new":{"b":1.0,"a":[true,null,{"$color":"#FF8800"}]},"op":"set","path":"z"}"##)
        ])
        let text = String(decoding: replayed.jsonBytes, as: UTF8.self)
        #expect(
            text == ##"{"app/memory":{"cart":{"total":90},"z":{"a":[true,null,{"$color":"#FF8800"}],"b":1.0}}}"## + "\n"
        )
        #expect(replayed.jsonBytes == Array((replayed.value.jsonText(sortedKeys: true) + "\n").utf8))
        #expect(replayed.jsonBytes == (try JanssonCodec.encode(replayed.value)) + [UInt8(ascii: "\n")])
    }
}
