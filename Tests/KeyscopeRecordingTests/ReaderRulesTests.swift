import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeRecording
import Testing

/// Every reading rule of docs/recording.md, each with the line number and code it must report.
@Suite struct ReaderRulesTests {
    private func expectError(
        _ lines: [String], finalNewline: Bool = true, _ code: RecordingError.Code, line: Int?, mentioning text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = TestLog.error(TestLog.bytes(lines, finalNewline: finalNewline))
        #expect(error?.code == code, "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(error?.line == line, "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(
            error?.message.contains(text) == true, "\(String(describing: error)) lacks \(text)",
            sourceLocation: sourceLocation)
    }

    // MARK: The header

    @Test func anEmptyFileIsAnErrorOnLine1() {
        let error = TestLog.error([])
        #expect(error?.code == .badHeader)
        #expect(error?.line == 1)
        #expect(error?.message.contains("empty") == true)
    }

    @Test func aHeaderWithoutItsNewlineIsAnErrorOnLine1EvenThoughItParses() {
        expectError([TestLog.header], finalNewline: false, .badHeader, line: 1, mentioning: "no final newline")
    }

    @Test func aBlankFirstLineIsAnErrorOnLine1() {
        expectError(["", TestLog.setTotal(1, from: 90, to: 100)], .badHeader, line: 1, mentioning: "blank")
    }

    @Test func theHeaderMustBeValidJSON() {
        expectError([#"{"format":"keyscope-log","#], .badHeader, line: 1, mentioning: "invalid JSON at column")
    }

    @Test func theHeaderNeedsFormatVersionCreatedAtAndStores() {
        expectError([#"{"version":1}"#], .badHeader, line: 1, mentioning: "format")
        let noStores = #"{"createdAt":"2026-11-21T10:00:00.000000Z","format":"keyscope-log","version":1}"#
        expectError([noStores], .badHeader, line: 1, mentioning: "stores")
        let noTime = #"{"format":"keyscope-log","stores":[],"version":1}"#
        expectError([noTime], .badHeader, line: 1, mentioning: "createdAt")
    }

    @Test func anUnknownHeaderVersionIsAnError() {
        let header = TestLog.header.replacingOccurrences(of: #""version":1}"#, with: #""version":2}"#)
        expectError([header], .badHeader, line: 1, mentioning: "unknown log format version 2")
    }

    @Test func anEventLineInPlaceOfTheHeaderIsAnError() {
        expectError([TestLog.setTotal(1, from: 90, to: 100)], .badHeader, line: 1, mentioning: "format")
    }

    @Test func aHeaderWithoutEventsIsARecordingOfNothing() throws {
        #expect(try TestLog.events(TestLog.bytes([TestLog.header])).isEmpty)
    }

    // MARK: Event lines

    @Test func aBlankLineIsAnErrorNamingItsLine() {
        let lines = [TestLog.header, TestLog.setTotal(1, from: 90, to: 100), "", TestLog.setTotal(2, from: 100, to: 1)]
        expectError(lines, .badLine, line: 3, mentioning: "blank")
        expectError([TestLog.header, "  \t"], .badLine, line: 2, mentioning: "blank")
    }

    @Test func invalidJSONIsAnErrorNamingLineAndColumn() {
        let lines = [TestLog.header, TestLog.setTotal(1, from: 90, to: 100), #"{"seq": 2, "#]
        expectError(lines, .badLine, line: 3, mentioning: "invalid JSON at column")
    }

    @Test func wrongTypesAreErrors() {
        let base = [TestLog.header]
        expectError(base + [#"[1, 2]"#], .badLine, line: 2, mentioning: "JSON object")
        let stringSeq = TestLog.setTotal(1, from: 90, to: 100).replacingOccurrences(
            of: #""seq":1"#, with: #""seq":"1""#)
        expectError(base + [stringSeq], .badLine, line: 2, mentioning: "seq")
        let badTime = TestLog.setTotal(1, from: 90, to: 100).replacingOccurrences(
            of: "2026-11-21T10:00:01.000000Z", with: "2026-11-21 10:00:01")
        expectError(base + [badTime], .badLine, line: 2, mentioning: "time")
        expectError(base + [TestLog.change(1, "", store: "memory")], .badLine, line: 2, mentioning: "store")
        expectError(base + [TestLog.change(1, "", txn: "42")], .badLine, line: 2, mentioning: "txn")
        let noPatches = #"{"seq":1,"store":"app/memory","time":"2026-11-21T10:00:01.000000Z"}"#
        expectError(base + [noPatches], .badLine, line: 2, mentioning: "patches")
        expectError(
            base + [TestLog.change(1, #"{"op":"move","path":"a","new":1}"#)], .badLine, line: 2, mentioning: "move")
    }

    @Test func anUnknownEventKindIsAnError() {
        let lines = [TestLog.header, TestLog.event(1, "renamed", store: "app/memory")]
        expectError(lines, .badLine, line: 2, mentioning: "unknown event kind \"renamed\"")
    }

    @Test func seqStartsAt1() {
        expectError(
            [TestLog.header, TestLog.setTotal(2, from: 90, to: 100)], .badSeq, line: 2, mentioning: "starts at 1")
        expectError([TestLog.header, TestLog.setTotal(0, from: 90, to: 100)], .badLine, line: 2, mentioning: "seq")
    }

    @Test func seqRisesByExactlyOne() {
        let skipped = [TestLog.header, TestLog.setTotal(1, from: 90, to: 100), TestLog.setTotal(3, from: 100, to: 1)]
        expectError(skipped, .badSeq, line: 3, mentioning: "seq 3 follows seq 1")
        let repeated = [TestLog.header, TestLog.setTotal(1, from: 90, to: 100), TestLog.setTotal(1, from: 100, to: 1)]
        expectError(repeated, .badSeq, line: 3, mentioning: "seq 1 follows seq 1")
    }

    @Test func unknownKeysAreIgnoredInTheHeaderAndInEvents() throws {
        let header = TestLog.header.replacingOccurrences(
            of: #""version":1}"#, with: #""version":1,"liveSeq":4411,"future":{"x":[1]}}"#)
        let line = TestLog.setTotal(1, from: 90, to: 100).replacingOccurrences(
            of: #""seq":1,"#, with: #""seq":1,"liveSeq":4412,"subscriptions":[],"#)
        let reader = try RecordingReader(bytes: TestLog.bytes([header, line]))
        #expect(reader.header.extras["liveSeq"] == .integer(4411))
        let entry = try #require(try reader.next())
        #expect(entry.seq == 1)
    }

    @Test func anAbsentTxnReadsAsNull() throws {
        let line = #"{"patches":[],"seq":1,"store":"app/memory","time":"2026-11-21T10:00:01.000000Z"}"#
        let entries = try TestLog.events(TestLog.bytes([TestLog.header, line]))
        guard case .change(let change) = entries.first?.event else {
            Issue.record("no change read")
            return
        }
        #expect(change.transactionID == nil)
    }

    @Test func aLineOverTheLimitIsLineTooLong() {
        let lines = [
            TestLog.header, TestLog.setTotal(1, from: 90, to: 100),
            TestLog.change(2, String(repeating: " ", count: 600)),
        ]
        let error = TestLog.error(TestLog.bytes(lines), maxLineLength: 500)
        #expect(error?.code == .lineTooLong)
        #expect(error?.line == 3)
        let headerError = TestLog.error(TestLog.bytes(lines), maxLineLength: 100)
        #expect(headerError?.code == .lineTooLong)
        #expect(headerError?.line == 1)
    }

    @Test func aMissingFileIsAnIOError() {
        #expect {
            try RecordingReader(contentsOf: URL(fileURLWithPath: "/nonexistent/keyscope/none.kslog"))
        } throws: { error in
            (error as? RecordingError)?.code == .io && (error as? RecordingError)?.line == nil
        }
    }
}
