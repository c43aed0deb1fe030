import Foundation
import KeyscopeCodec
import KeyscopeCore
import Testing

/// Patches and docs/recording.md event lines through the jansson codec.
@Suite("patches and log lines")
struct LogLineTests {
    static let time = LogTime(rfc3339: "2026-11-21T10:00:00.125000Z")!
    static let store = StoreID("app/memory")!
    static let txn = UUID(uuidString: "3f2a9c4e-8b1d-4e6f-9a0b-1c2d3e4f5a6b")!

    static let patches: [StorePatch] = [
        StorePatch(op: .set, keyPath: "cart.total", oldValue: 90, newValue: 100),
        StorePatch(op: .set, keyPath: "cart.note", newValue: "hi"),
        StorePatch(op: .insert, keyPath: "items[1]", newValue: ["title": "y"]),
        StorePatch(op: .remove, keyPath: "items[2]", oldValue: ["title": "x"]),
        StorePatch(op: .merge, keyPath: "user", oldValue: ["name": "A"], newValue: ["name": "B", "age": 3]),
        StorePatch(
            op: .set, keyPath: try! StoreKeyPath(parsing: #"prefs["com.app.theme"].$x"#),
            newValue: ["$beta": .number(.nan), "c": .color(StoreColor("#FF8800")!)]),
    ]

    @Test("a patch encodes like the core's jsonObject, sorted", arguments: patches)
    func patchEncoding(_ patch: StorePatch) throws {
        let bytes = try JanssonCodec.encode(patch)
        #expect(bytes == patch.jsonObject.jsonBytes(sortedKeys: true))
        #expect(try JanssonCodec.decodePatch(bytes) == patch)
    }

    @Test("the docs/store.md patch examples, exactly")
    func patchText() throws {
        let texts = try Self.patches.prefix(5).map { String(decoding: try JanssonCodec.encode($0), as: UTF8.self) }
        #expect(
            texts == [
                #"{"new":100,"old":90,"op":"set","path":"cart.total"}"#,
                #"{"new":"hi","op":"set","path":"cart.note"}"#,
                #"{"new":{"title":"y"},"op":"insert","path":"items[1]"}"#,
                #"{"old":{"title":"x"},"op":"remove","path":"items[2]"}"#,
                #"{"new":{"age":3,"name":"B"},"old":{"name":"A"},"op":"merge","path":"user"}"#,
            ])
    }

    @Test("a patch whose fields do not fit its op is refused")
    func badPatches() {
        for text in [
            #"{"op":"remove","path":"a"}"#, #"{"op":"set","path":"a"}"#, #"{"op":"jump","path":"a","new":1}"#,
            #"{"op":"set","path":"a..b","new":1}"#, #"[1]"#,
        ] {
            let error = #expect(throws: JanssonCodecError.self) { try JanssonCodec.decodePatch(Array(text.utf8)) }
            #expect(error?.code == .invalidValue)
        }
    }

    @Test("a change line is exactly the log format's, keys sorted")
    func changeLine() throws {
        let change = StoreChange(storeID: Self.store, patches: [Self.patches[0]])
        let line = try JanssonCodec.encodeChange(change, seq: 1, time: Self.time)
        let expected =
            #"{"patches":[{"new":100,"old":90,"op":"set","path":"cart.total"}],"seq":1,"store":"app/memory","#
            + #""time":"2026-11-21T10:00:00.125000Z","txn":null}"#
        #expect(String(decoding: line, as: UTF8.self) == expected)

        let transaction = StoreChange(storeID: Self.store, patches: Self.patches, transactionID: Self.txn)
        let txnLine = String(
            decoding: try JanssonCodec.encodeChange(transaction, seq: 9, time: Self.time), as: UTF8.self)
        #expect(txnLine.hasSuffix(#","txn":"3F2A9C4E-8B1D-4E6F-9A0B-1C2D3E4F5A6B"}"#))
        #expect(txnLine.contains(#""seq":9,"#))
    }

    @Test("store event lines are exactly the log format's, keys sorted")
    func storeEventLines() throws {
        let scenario = StoreID("scenario:checkout/memory")!
        let lines = try [
            LogEvent.registered(scenario, version: "1.0.0", root: ["cart": ["total": 90]]),
            .reset(scenario, version: "2.0.0"), .removed(scenario),
        ].enumerated().map { offset, event in
            String(
                decoding: try JanssonCodec.encode(LogEntry(seq: Int64(offset + 2), time: Self.time, event: event)),
                as: UTF8.self)
        }
        let stamp = #""store":"scenario:checkout/memory","time":"2026-11-21T10:00:00.125000Z""#
        #expect(
            lines == [
                #"{"event":"registered","root":{"cart":{"total":90}},"seq":2,"# + stamp + #","version":"1.0.0"}"#,
                #"{"event":"reset","seq":3,"# + stamp + #","version":"2.0.0"}"#,
                #"{"event":"removed","seq":4,"# + stamp + "}",
            ])
    }

    @Test("every kind of entry round-trips through its line")
    func roundTrips() throws {
        let entries: [LogEntry] = [
            LogEntry(seq: 1, time: Self.time, event: .change(StoreChange(storeID: Self.store, patches: Self.patches))),
            LogEntry(
                seq: 2, time: Self.time,
                event: .change(StoreChange(storeID: Self.store, patches: Self.patches, transactionID: Self.txn))),
            LogEntry(seq: 3, time: .earliest, event: .registered(Self.store, version: "1.4.0", root: ["a": [1, 2.5]])),
            LogEntry(seq: 4, time: .latest, event: .reset(StoreID("app/userPrefs:com.shop")!, version: "2.0.0")),
            LogEntry(seq: .max, time: Self.time, event: .removed(StoreID("app/file:/var/lib/svc/state.json")!)),
        ]
        for entry in entries {
            let line = try JanssonCodec.encode(entry)
            #expect(try JanssonCodec.decodeLogEntry(line) == entry)
            #expect(try JanssonCodec.decodeLogEntry(line + [0x0A]) == entry)
        }
    }

    @Test("reading follows docs/recording.md: unknown keys ignored, absent txn is null, txn in either case")
    func readingRules() throws {
        let line =
            #"{"seq":5,"time":"2026-11-21T10:00:00.125000Z","store":"app/memory","future":{"x":[1]},"#
            + #""patches":[{"op":"set","path":"a","new":1,"extra":true}]}"#
        let entry = try JanssonCodec.decodeLogEntry(Array(line.utf8))
        #expect(entry.seq == 5)
        #expect(entry.time == Self.time)
        #expect(
            entry.event
                == .change(StoreChange(storeID: Self.store, patches: [StorePatch(op: .set, keyPath: "a", newValue: 1)]))
        )

        let lower =
            #"{"seq":1,"time":"2026-11-21T10:00:00.125000Z","store":"app/memory","patches":[],"#
            + #""txn":"3f2a9c4e-8b1d-4e6f-9a0b-1c2d3e4f5a6b"}"#
        guard case .change(let change) = try JanssonCodec.decodeLogEntry(Array(lower.utf8)).event else {
            Issue.record("not a change")
            return
        }
        #expect(change.transactionID == Self.txn)
    }

    /// Lines with one thing wrong, and a word the error must name. `seq`, `time` and `store` are valid unless
    /// overridden (a later duplicate key would be a JSON error, so each case spells its line whole).
    static let badLineCases: [(String, String)] = {
        let stamp = #""time":"2026-11-21T10:00:00.125000Z","store":"app/memory""#
        return [
            (#"[1]"#, "a JSON object"),
            (#"{"seq":0,"# + stamp + #","patches":[]}"#, "\"seq\""),
            (#"{"seq":"1","# + stamp + #","patches":[]}"#, "\"seq\""),
            (#"{"seq":1,"time":"2026-11-21 10:00:00Z","store":"app/memory","patches":[]}"#, "\"time\""),
            (#"{"seq":1,"time":"2026-11-21T10:00:00.125000Z","store":"memory","patches":[]}"#, "\"store\""),
            (#"{"seq":1,"# + stamp + "}", "\"patches\""),
            (#"{"seq":1,"# + stamp + #","patches":[],"txn":7}"#, "\"txn\""),
            (#"{"seq":1,"# + stamp + #","patches":[],"txn":"x"}"#, "UUID"),
            (#"{"seq":1,"# + stamp + #","patches":[{"op":"set"}]}"#, "patch 1"),
            (#"{"seq":1,"# + stamp + #","event":"renamed"}"#, "unknown event"),
            (#"{"seq":1,"# + stamp + #","event":1}"#, "\"event\""),
            (#"{"seq":1,"# + stamp + #","event":"reset"}"#, "\"version\""),
            (#"{"seq":1,"# + stamp + #","event":"registered","version":"1.0.0"}"#, "\"root\""),
            (#"{"seq":1,"# + stamp + #","event":"registered","version":"1.0.0","root":[]}"#, "object"),
            (#"{"seq":1,"# + stamp + #","event":"reset","version":"2"}"#, "major.minor.patch"),
        ]
    }()

    @Test("bad lines are refused with the reason", arguments: LogLineTests.badLineCases)
    func badLines(_ text: String, _ reason: String) {
        let error = #expect(throws: JanssonCodecError.self) { try JanssonCodec.decodeLogEntry(Array(text.utf8)) }
        #expect(error?.code == (reason == "\"time\"" ? .invalidTime : .invalidLogLine))
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
    }

    @Test("lines a reader would refuse are not written")
    func unwritableLines() {
        let zero = #expect(throws: JanssonCodecError.self) {
            try JanssonCodec.encode(LogEntry(seq: 0, time: Self.time, event: .removed(Self.store)))
        }
        #expect(zero?.code == .invalidLogLine)
        let root = #expect(throws: JanssonCodecError.self) {
            try JanssonCodec.encode(
                LogEntry(seq: 1, time: Self.time, event: .registered(Self.store, version: "1.0.0", root: [1])))
        }
        #expect(root?.code == .invalidLogLine)
    }

    @Test("maxDepth limits each value; the line's own levels come on top")
    func lineDepth() throws {
        let deep = (0..<512).reduce(StoreValue.integer(1)) { value, _ in .array([value]) }
        let change = StoreChange(storeID: Self.store, patches: [StorePatch(op: .set, keyPath: "a", newValue: deep)])
        let line = try JanssonCodec.encodeChange(change, seq: 1, time: Self.time)
        #expect(try JanssonCodec.decodeLogEntry(line).event == .change(change))
        let error = #expect(throws: JanssonCodecError.self) {
            try JanssonCodec.encodeChange(
                StoreChange(storeID: Self.store, patches: [StorePatch(op: .set, keyPath: "a", newValue: [deep])]),
                seq: 1, time: Self.time)
        }
        #expect(error?.code == .tooDeep)
        #expect(error?.description.hasPrefix("cannot encode: the value nests deeper than the limit of 512") == true)
        #expect(throws: JanssonCodecError.self) { try JanssonCodec.decodeLogEntry(line, maxDepth: 511) }
        let rootLine = try JanssonCodec.encode(
            LogEntry(seq: 1, time: Self.time, event: .registered(Self.store, version: "1.0.0", root: ["a": deep])),
            maxDepth: 513)
        #expect(throws: JanssonCodecError.self) { try JanssonCodec.decodeLogEntry(rootLine) }
        #expect(try JanssonCodec.decodeLogEntry(rootLine, maxDepth: 513).seq == 1)
    }

    @Test("store activities map to log events; subscription changes are not logged")
    func activities() {
        let change = StoreChange(storeID: Self.store, patches: [Self.patches[0]])
        #expect(LogEvent(.changed(change)) == .change(change))
        #expect(LogEvent(.removed(Self.store)) == .removed(Self.store))
        #expect(LogEvent(.subscriptionsChanged(Self.store, [])) == nil)
        #expect(LogEvent(.reset(Self.store, version: "3.0.0"))?.storeID == Self.store)
    }
}
