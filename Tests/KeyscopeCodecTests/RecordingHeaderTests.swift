import KeyscopeCodec
import KeyscopeCore
import Testing

@Suite struct RecordingHeaderTests {
    private let time = LogTime(rfc3339: "2026-11-21T10:00:00.000000Z")!

    @Test func encodesTheContractExampleWithSortedKeys() throws {
        let header = RecordingHeader(
            createdAt: time, source: .init(name: "checkout-service", host: "dev-1", pid: 4242),
            stores: [.init(id: StoreID("app/memory")!, version: "1.4.0", root: ["cart": ["total": 90]])])
        let line = String(decoding: try JanssonCodec.encode(header), as: UTF8.self)
        #expect(
            line == #"{"createdAt":"2026-11-21T10:00:00.000000Z","format":"keyscope-log","#
                + #""source":{"host":"dev-1","name":"checkout-service","pid":4242},"#
                + #""stores":[{"id":"app/memory","root":{"cart":{"total":90}},"version":"1.4.0"}],"version":1}"#)
        #expect(try JanssonCodec.decodeRecordingHeader(Array(line.utf8)) == header)
    }

    /// A root may nest `maxDepth` levels below the header's three; a limit near `Int.max` is lowered to jansson's.
    @Test(arguments: [2, 3, Int.max - 2, Int.max - 1, Int.max])
    func aRootGetsTheFullDepthLimitBelowTheHeader(maxDepth: Int) throws {
        let header = RecordingHeader(
            createdAt: time, stores: [.init(id: StoreID("app/memory")!, version: "1.4.0", root: ["a": ["b": 1]])])
        let line = try JanssonCodec.encode(header, maxDepth: maxDepth)
        #expect(try JanssonCodec.decodeRecordingHeader(line, maxDepth: maxDepth) == header)
        #expect(throws: JanssonCodecError.self) { try JanssonCodec.encode(header, maxDepth: 1) }
        #expect(throws: JanssonCodecError.self) { try JanssonCodec.decodeRecordingHeader(line, maxDepth: 1) }
    }

    @Test func keepsUnknownKeysAsExtrasAndSourceIsOptional() throws {
        let line =
            #"{"format":"keyscope-log","version":1,"createdAt":"2026-11-21T10:00:00.000000Z","stores":[],"#
            + #""liveSeq":41,"later":{"x":[1]}}"# + "\n"
        let header = try JanssonCodec.decodeRecordingHeader(Array(line.utf8))
        #expect(header.source == nil)
        #expect(header.stores.isEmpty)
        #expect(header.extras == ["liveSeq": 41, "later": ["x": [1]]])
        let again = try JanssonCodec.decodeRecordingHeader(try JanssonCodec.encode(header))
        #expect(again == header)
    }

    @Test(arguments: [
        (#"[1]"#, "must be a JSON object"),
        (#"{"version":1,"createdAt":"2026-11-21T10:00:00.000000Z","stores":[]}"#, "needs \"format\""),
        (
            #"{"format":"other","version":1,"createdAt":"2026-11-21T10:00:00.000000Z","stores":[]}"#,
            "not \"keyscope-log\""
        ),
        (
            #"{"format":"keyscope-log","version":2,"createdAt":"2026-11-21T10:00:00.000000Z","stores":[]}"#,
            "unknown log format version 2"
        ),
        (
            #"{"format":"keyscope-log","version":1.0,"createdAt":"2026-11-21T10:00:00.000000Z","stores":[]}"#,
            "as the integer 1"
        ),
        (#"{"format":"keyscope-log","version":1,"stores":[]}"#, "needs \"createdAt\""),
        (#"{"format":"keyscope-log","version":1,"createdAt":"yesterday","stores":[]}"#, "createdAt"),
        (#"{"format":"keyscope-log","version":1,"createdAt":"2026-11-21T10:00:00.000000Z"}"#, "needs \"stores\""),
        (
            #"{"format":"keyscope-log","version":1,"createdAt":"2026-11-21T10:00:00.000000Z","stores":[{"id":"nope","version":"1.0.0","root":{}}]}"#,
            "store id"
        ),
        (
            #"{"format":"keyscope-log","version":1,"createdAt":"2026-11-21T10:00:00.000000Z","stores":[{"id":"app/memory","version":"1","root":{}}]}"#,
            "major.minor.patch"
        ),
        (
            #"{"format":"keyscope-log","version":1,"createdAt":"2026-11-21T10:00:00.000000Z","stores":[{"id":"app/memory","version":"1.0.0","root":[]}]}"#,
            "must be an object"
        ),
        (
            #"{"format":"keyscope-log","version":1,"createdAt":"2026-11-21T10:00:00.000000Z","stores":[{"id":"app/memory","version":"1.0.0","root":{}},{"id":"app/memory","version":"1.0.0","root":{}}]}"#,
            "listed twice"
        ),
        (
            #"{"format":"keyscope-log","version":1,"createdAt":"2026-11-21T10:00:00.000000Z","stores":[],"source":{"pid":"4"}}"#,
            "source.pid"
        ),
    ])
    func refusesBadHeaders(line: String, reason: String) {
        #expect {
            _ = try JanssonCodec.decodeRecordingHeader(Array(line.utf8))
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func eventLinesCarryExtrasSortedAmongTheirKeys() throws {
        let entry = LogEntry(seq: 3, time: time, event: .removed(StoreID("scenario:checkout/memory")!))
        let line = String(
            decoding: try JanssonCodec.encode(entry, extras: ["liveSeq": 812, "subscriptions": []]), as: UTF8.self)
        #expect(
            line == #"{"event":"removed","liveSeq":812,"seq":3,"store":"scenario:checkout/memory","#
                + #""subscriptions":[],"time":"2026-11-21T10:00:00.000000Z"}"#)
        #expect(try JanssonCodec.decodeLogEntry(Array(line.utf8)) == entry)
        #expect(throws: JanssonCodecError.self) { try JanssonCodec.encode(entry, extras: ["seq": 1]) }
    }
}
