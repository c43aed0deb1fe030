import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopeTesting
import Testing

/// Log lines are docs/recording.md lines; snapshot messages are docs/protocol.md snapshots; times are RFC 3339 with µs.
@Suite struct LineFormatTests {
    @Test func aChangeLineHasExactlyTheLogFormatFieldsWithSortedKeys() throws {
        let hub = startedHub()
        let store = try addStore(hub, "line", root: ["cart": ["total": 90]])
        store.set("cart.total", 100)
        try store.apply([.set("cart.note", "hi"), .remove("cart.total")])
        let single = try #require(hub.entry(seq: 2))
        let line = try parsed(single.lineBytes)
        #expect(Set(line.keys) == ["patches", "seq", "store", "time", "txn"])
        #expect(line["seq"] == 2 && line["store"] == "scenario:line/memory" && line["txn"] == .null)
        #expect(line["patches"] == [["op": "set", "path": "cart.total", "old": 90, "new": 100]])
        #expect(isLogTime(try #require(line["time"]?.stringValue)))
        #expect(line["time"]?.stringValue == single.time.rfc3339)
        // Keys sorted, compact: the bytes are the canonical encoding of what they parse to.
        #expect(single.lineBytes == StoreValue.object(line).jsonBytes(sortedKeys: true))
        #expect(String(decoding: single.lineBytes, as: UTF8.self).hasPrefix(#"{"patches":[{"new":100,"old":90"#))
        let transaction = try parsed(try #require(hub.entry(seq: 3)).lineBytes)
        let txn = try #require(transaction["txn"]?.stringValue)
        #expect(UUID(uuidString: txn) == hub.entry(seq: 3)?.change?.transactionID)
        #expect(transaction["patches"]?.arrayValue?.count == 2)
        // Made once and shared.
        #expect(single.lineBytes == single.lineBytes)
    }

    @Test func everyKindOfPatchIsWrittenAsItsCanonicalObject() throws {
        let hub = startedHub()
        let store = try addStore(hub, "ops", root: ["list": [1, 2], "obj": ["a": 1]])
        try store.apply([
            .set("obj.a", "é \"quoted\"\n"), .insert("list[1]", 1.5), .remove("list[0]"),
            .merge("obj", ["b": nil, "c": [true]]),
            .set(try StoreKeyPath(parsing: #"obj["odd key"]"#), -9_223_372_036_854_775_807),
        ])
        store.set("list[0]", 0)
        for seq in 2...3 {
            let entry = try #require(hub.entry(seq: seq))
            // The hot-path writer and the object form agree byte for byte, for every op, with and without a txn.
            #expect(entry.lineBytes == entry.jsonObject.jsonBytes(sortedKeys: true))
        }
        let transaction = try parsed(try #require(hub.entry(seq: 2)).lineBytes)
        #expect(
            transaction["patches"]?.arrayValue?.compactMap { $0.objectValue?["op"]?.stringValue }
                == ["set", "insert", "remove", "merge", "set"])
        #expect(transaction["txn"]?.stringValue == hub.entry(seq: 2)?.change?.transactionID?.uuidString.lowercased())
    }

    @Test func storeEventLinesCarryTheirEventFields() throws {
        let hub = startedHub()
        let factory = DefaultStoreFactory(version: "1.4.0", registry: hub.registry)
        let store = factory.store(scope: .scenario(id: "ev"), storage: .memory)
        store.set("$odd", 1)
        factory.updateVersion("2.0.0")
        factory.endScenario("ev")
        let registered = try parsed(try #require(hub.entry(seq: 1)).lineBytes)
        #expect(
            registered == [
                "event": "registered", "seq": 1, "store": "scenario:ev/memory",
                "time": registered["time"]!, "version": "1.4.0", "root": [:],
            ])
        let change = try #require(hub.entry(seq: 2)).lineBytes
        #expect(String(decoding: change, as: UTF8.self).contains(#""path":"$odd""#))
        let reset = try parsed(try #require(hub.entry(seq: 3)).lineBytes)
        #expect(Set(reset.keys) == ["event", "seq", "store", "time", "version"] && reset["event"] == "reset")
        #expect(reset["version"] == "2.0.0")
        let removed = try parsed(try #require(hub.entry(seq: 4)).lineBytes)
        #expect(Set(removed.keys) == ["event", "seq", "store", "time"] && removed["event"] == "removed")
        for seq in 1...4 { #expect(isLogTime(try parsed(hub.entry(seq: seq)!.lineBytes)["time"]!.stringValue!)) }
    }

    @Test func theSnapshotMessageIsTheProtocolSnapshot() throws {
        let hub = startedHub()
        let store = try addStore(hub, "snap", root: ["$x": 1, "n": ["y": 2.5]])
        try hub.registry.register(KeyValueStore(id: StoreID(scope: .app, storage: .memory), version: "3.1.0"))
        let subscription = store.publisher(for: ["n", "$x"]).sink { _ in }
        defer { subscription.cancel() }
        let bytes = hub.snapshot().messageBytes()
        #expect(
            String(decoding: bytes, as: UTF8.self).hasPrefix(
                #"{"type":"snapshot","seq":2,"stores":[{"id":"app/memory""#))
        let message = try parsed(bytes)
        #expect(Set(message.keys) == ["type", "seq", "stores", "subscriptions"])
        #expect(
            message["stores"] == [
                ["id": "app/memory", "scope": "app", "storage": "memory", "version": "3.1.0", "root": [:]],
                [
                    "id": "scenario:snap/memory", "scope": "scenario:snap", "storage": "memory", "version": "1.0.0",
                    "root": ["$x": 1, "n": ["y": 2.5]],
                ],
            ])
        let list = try #require(message["subscriptions"]?.arrayValue)
        #expect(list.map { $0["path"] } == ["$x", "n"])  // one object per path of the subscription
        for item in list {
            #expect(
                Set(try #require(item.objectValue).keys) == ["id", "store", "path", "label", "since", "deliveries"])
            #expect(item["label"] == .null && item["store"] == "scenario:snap/memory" && item["deliveries"] == 1)
            #expect(isLogTime(try #require(item["since"]?.stringValue)))
        }
    }
}

/// The direct line writer against the object it must equal, on random changes of every shape.
@Suite struct LineWriterConsistencyTests {
    @Test func everyLineIsTheSortedEncodingOfItsObject() throws {
        let hub = startedHub()
        let store = try addStore(hub, "lines")
        var random = SplitMix64(seed: 42)
        for _ in 0..<2_000 { RandomWrites.perform(on: store, using: &random) }
        try store.apply([.set("quoted[\"a.b\"]", "x\n\"y\""), .set("$key", .number(.nan))], transactionID: UUID())
        var checked = 0
        for seq in 1...hub.lastSeq {
            let entry = try #require(hub.entry(seq: seq))
            #expect(entry.lineBytes == entry.jsonObject.jsonBytes(sortedKeys: true), "seq \(seq)")
            checked += 1
        }
        #expect(checked > 1_000)
    }

    @Test func aLineLongerThanItsStackScratchIsWrittenWhole() throws {
        // A 600-set transaction of 400-character strings: about 260 KB, past the 64 KiB the encoder asks of the
        // stack, so the line moves to the heap while it is written.
        let hub = startedHub()
        let store = try addStore(hub, "long")
        let text = String(repeating: "0123456789", count: 40)
        try store.apply((0..<600).map { .set(StoreKeyPath.root.appending(key: "k\($0)"), .string(text)) })
        let entry = try #require(hub.entry(seq: hub.lastSeq))
        #expect(entry.lineBytes.count > 2 * (64 << 10))
        #expect(entry.lineBytes == entry.jsonObject.jsonBytes(sortedKeys: true))
    }
}
