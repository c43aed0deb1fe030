import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import Testing

@testable import KeyscopeRecording

@Suite struct WriterTests {
    let id = StoreID("app/memory")!
    let time = LogTime(rfc3339: "2026-11-21T10:00:00.125000Z")!

    private func stores(_ root: StoreValue = ["n": 0]) -> [RecordingHeader.Store] {
        [RecordingHeader.Store(id: id, version: "1.0.0", root: root)]
    }

    private func set(_ n: Int, _ old: Int? = nil, path: StoreKeyPath = "n") -> LogEvent {
        .change(
            StoreChange(
                storeID: id,
                patches: [
                    StorePatch(
                        op: .set, keyPath: path, oldValue: .integer(Int64(old ?? n - 1)), newValue: .integer(Int64(n)))
                ]))
    }

    @Test func theHeaderCarriesTheRecordersExtrasAndTheMaskedState() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let hidden = StoreID("app/userPrefs")!
        let subscriptions: StoreValue = [
            [
                "id": 1, "store": "app/memory", "path": "n", "label": "view", "since": "2026-11-21T09:00:00.000000Z",
                "deliveries": 3,
            ],
            [
                "id": 2, "store": "app/userPrefs", "path": "x", "label": .null, "since": "2026-11-21T09:00:00.000000Z",
                "deliveries": 1,
            ],
        ]
        let writer = try RecordingWriter(
            url: folder.file("a.kslog"), createdAt: time, source: .init(name: "shop", host: "dev-1", pid: 42),
            stores: stores(["n": 0, "card": "4242"]) + [.init(id: hidden, version: "1.0.0", root: ["x": 1])],
            liveSeq: 99, subscriptions: subscriptions,
            options: .init(mute: try MuteRules(patterns: ["card"], stores: [hidden])))
        writer.close()
        let replayed = try WrittenRecording(contentsOf: folder.file("a.kslog"))
        #expect(replayed.header.createdAt == time)
        #expect(replayed.header.source == .init(name: "shop", host: "dev-1", pid: 42))
        #expect(
            replayed.header.stores == [.init(id: id, version: "1.0.0", root: ["n": 0, "card": MuteRules.placeholder])])
        let extras = replayed.header.extras
        #expect(extras["liveSeq"] == 99)
        #expect(extras["muted"] == ["card"])
        #expect(extras["mutedStores"] == ["app/userPrefs"])
        #expect(extras["recorder"]?["name"] == "keyscope")
        #expect(extras["subscriptions"]?.arrayValue?.count == 1, "the muted store's subscription is left out")
    }

    @Test func everyLineIsInTheFileWhenAppendReturns() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let url = folder.file("live.kslog")
        let writer = try RecordingWriter(url: url, stores: stores(), liveSeq: 10)
        for n in 1...50 {
            #expect(try writer.append(set(n), time: time, liveSeq: 10 + n) == .written)
            // Read by another handle while the writer still has the file open: complete lines only, all of them.
            let bytes = Array(try Data(contentsOf: url))
            #expect(bytes.last == UInt8(ascii: "\n"))
            #expect(bytes.count == writer.counts.bytes)
            let replayed = try WrittenRecording(bytes: bytes)
            #expect(replayed.entries.count == n)
            #expect(replayed.stores[id] == ["n": .integer(Int64(n))])
        }
        writer.close()
    }

    @Test func seqIsDenseFromOneAndTheLiveSeqIsKept() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let other = StoreID("app/userPrefs")!
        let writer = try RecordingWriter(
            url: folder.file("seq.kslog"), stores: stores(), liveSeq: 7,
            options: .init(mute: try MuteRules(patterns: ["secret"], stores: [other])))
        #expect(try writer.append(set(1), time: time, liveSeq: 8) == .written)
        #expect(try writer.append(.removed(other), time: time, liveSeq: 9) == .muted)
        let below = LogEvent.change(
            StoreChange(storeID: id, patches: [StorePatch(op: .set, keyPath: "secret.pin", newValue: 1)]))
        #expect(try writer.append(below, time: time, liveSeq: 10) == .muted)
        #expect(try writer.append(set(2), time: time, liveSeq: 11) == .written)
        writer.close()
        let replayed = try WrittenRecording(contentsOf: folder.file("seq.kslog"))
        #expect(replayed.entries.map(\.seq) == [1, 2])
        #expect(replayed.liveSeqs == [8, 11])
        #expect(writer.counts.lastLiveSeq == 11)
    }

    @Test(arguments: [0, 1, 2, 3, 17])
    func theByteBoundIsNeverPassed(slack: Int) throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        // The same events unbounded, to know each line's size.
        let events = (1...20).map { n in set(n) }
        let free = try RecordingWriter(url: folder.file("free.kslog"), stores: stores(), liveSeq: 0)
        var sizes: [Int] = [free.counts.bytes]
        for (index, event) in events.enumerated() {
            let before = free.counts.bytes
            try free.append(event, time: time, liveSeq: index + 1)
            sizes.append(free.counts.bytes - before)
        }
        free.close()
        let bound = sizes[0...5].reduce(0, +) + slack
        let url = folder.file("bounded.kslog")
        let writer = try RecordingWriter(url: url, stores: stores(), liveSeq: 0, options: .init(maxBytes: bound))
        var written = 0
        for (index, event) in events.enumerated() {
            let outcome = try writer.append(event, time: time, liveSeq: index + 1)
            if outcome == .full { break }
            written += 1
        }
        #expect(written == 5, "five lines fit exactly; a sixth never does with less than its size of slack")
        #expect(try writer.append(set(99, 5), time: time, liveSeq: 99) == .full)
        #expect(writer.isFull)
        writer.close()
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int
        #expect(size <= bound)
        #expect(size == sizes[0...5].reduce(0, +))
        #expect(try WrittenRecording(contentsOf: url).entries.count == 5)
    }

    @Test func aHeaderOverTheBoundFailsAtOnceWithoutAFile() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let url = folder.file("tiny.kslog")
        #expect {
            try RecordingWriter(url: url, stores: stores(), options: .init(maxBytes: 64))
        } throws: { error in
            (error as! RecordingError).code == .tooLarge
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func anExistingFileIsNeverOverwrittenUnlessAsked() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let url = folder.file("kept.kslog")
        try Data("precious\n".utf8).write(to: url)
        #expect {
            try RecordingWriter(url: url, stores: stores())
        } throws: { error in
            (error as! RecordingError).message.contains("already exists")
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == "precious\n")
        let link = folder.file("link.kslog")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
        #expect(throws: RecordingError.self) { try RecordingWriter(url: link, stores: stores()) }
        #expect(throws: RecordingError.self) {
            try RecordingWriter(url: link, stores: stores(), options: .init(overwrite: true))
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == "precious\n")

        let writer = try RecordingWriter(url: url, stores: stores(), options: .init(overwrite: true))
        writer.close()
        #expect(try WrittenRecording(contentsOf: url).entries.isEmpty)
    }

    @Test func theFileIsReadableByItsOwnerOnly() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let url = folder.file("mode.kslog")
        try RecordingWriter(url: url, stores: stores()).close()
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as! Int
        #expect(mode & 0o077 == 0)
    }

    @Test func subscriptionsGoWithTheNextLineOnlyWhenTheSetChanged() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        func list(_ ids: [Int], deliveries: Int) -> StoreValue {
            .array(
                ids.map {
                    [
                        "id": .integer(Int64($0)), "store": "app/memory", "path": "n", "label": .null,
                        "since": "2026-11-21T09:00:00.000000Z", "deliveries": .integer(Int64(deliveries)),
                    ]
                })
        }
        let writer = try RecordingWriter(
            url: folder.file("subs.kslog"), stores: stores(), liveSeq: 0, subscriptions: list([1], deliveries: 1))
        writer.noteSubscriptions(list([1], deliveries: 5))  // counts moved, the set did not
        try writer.append(set(1), time: time, liveSeq: 1)
        writer.noteSubscriptions(list([1, 2], deliveries: 6))
        writer.noteSubscriptions(list([1, 2], deliveries: 7))  // the newest counts go out with it
        try writer.append(set(2), time: time, liveSeq: 2)
        try writer.append(set(3), time: time, liveSeq: 3)
        writer.close()
        let lines = try WrittenRecording(contentsOf: folder.file("subs.kslog")).lines
        #expect(lines[0]["subscriptions"] == nil)
        #expect(lines[1]["subscriptions"] == list([1, 2], deliveries: 7))
        #expect(lines[2]["subscriptions"] == nil)
    }

    @Test func appendsAfterCloseWriteNothing() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let writer = try RecordingWriter(url: folder.file("closed.kslog"), stores: stores())
        writer.close()
        writer.close()
        #expect(try writer.append(set(1), time: time) == .full)
        #expect(writer.counts.events == 0)
    }
}

/// The fast path (the hub's own line, renumbered) writes what encoding the event would: same members, same values.
@Suite struct WriterSpliceTests {
    @Test func theHubsLinesRenumberedReadLikeEncodedOnes() throws {
        let folder = try RecorderTempFolder()
        defer { folder.cleanUp() }
        let hub = recordedHub()
        let (snapshot, cursor) = hub.makeCursor()
        // Keys and values that look like the members the splice looks for, in a store whose id does too.
        let tricky = try addRecordedStore(hub, #"x"seq":1,"time":"y"#, root: ["seq": #"","seq":5,"time":""#])
        tricky.set("seq", #"{"seq":7,"time":"2026"}"#)
        tricky.set(#"["\"seq\":"]"#, ["time": "\"seq\":", "event": "removed"])
        let plain = try addRecordedStore(hub, "plain", root: ["items": [1, 2]])
        plain.insert("items[0]", 0)
        plain.remove("items[2]")
        plain.merge("user", ["name": "Ada"])
        plain.merge("user", ["name": "Grace", "age": 36])
        _ = try plain.transaction { tx in
            try tx.set("a", 1)
            try tx.set("b", ["c": [true, .null, 1.5]])
        }
        hub.registry.unregister(tricky.id)
        let factory = DefaultStoreFactory(version: "1.0.0", registry: hub.registry)
        factory.store(scope: .app, storage: .memory).set("n", 1)
        factory.updateVersion("2.0.0")
        guard case .entries(let entries)? = cursor.next() else {
            Issue.record("no entries")
            return
        }
        let fast = try RecordingWriter(url: folder.file("fast.kslog"), stores: [], liveSeq: snapshot.seq)
        let slow = try RecordingWriter(url: folder.file("slow.kslog"), stores: [], liveSeq: snapshot.seq)
        for (index, entry) in entries.enumerated() {
            if index % 3 == 1 {
                let list: StoreValue = [["id": .integer(Int64(index)), "store": "app/memory", "path": "n"]]
                fast.noteSubscriptions(list)
                slow.noteSubscriptions(list)
            }
            let event = Self.event(entry)
            #expect(
                RecordingSplice.renumber(entry.lineBytes, seq: index + 1, liveSeq: entry.seq, subscriptions: nil)
                    != nil, "the fast path takes every line the hub makes")
            #expect(
                try fast.append(event, time: entry.time, liveSeq: entry.seq, encoded: entry.lineBytes) == .written)
            #expect(try slow.append(event, time: entry.time, liveSeq: entry.seq) == .written)
        }
        fast.close()
        slow.close()
        let fastLines = try String(contentsOf: folder.file("fast.kslog"), encoding: .utf8).split(separator: "\n")
        let slowLines = try String(contentsOf: folder.file("slow.kslog"), encoding: .utf8).split(separator: "\n")
        #expect(fastLines.count == entries.count + 1)
        for (fastLine, slowLine) in zip(fastLines, slowLines).dropFirst() {
            var fastObject = try #require(try StoreValue(jsonBytes: Array(fastLine.utf8)).objectValue)
            var slowObject = try #require(try StoreValue(jsonBytes: Array(slowLine.utf8)).objectValue)
            // The hub writes a transaction id in lower case, the codec in upper case; both are allowed.
            #expect(fastObject["txn"]?.stringValue?.uppercased() == slowObject["txn"]?.stringValue?.uppercased())
            fastObject["txn"] = nil
            slowObject["txn"] = nil
            #expect(fastObject == slowObject, "\(fastLine)\n\(slowLine)")
            #expect(
                try JanssonCodec.decodeLogEntry(Array(fastLine.utf8))
                    == JanssonCodec.decodeLogEntry(Array(slowLine.utf8)))
        }
        let replayed = try WrittenRecording(contentsOf: folder.file("fast.kslog"))
        #expect(replayed.entries.count == entries.count)
    }

    #if os(Linux)
    /// `/dev/full` answers every write with `ENOSPC`, as a full disk does: an `io` error with the system's reason.
    @Test func aFailedWriteIsAnIOErrorWithTheSystemsReason() throws {
        let descriptor = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let url = URL(fileURLWithPath: "/dev/full")
        #expect {
            try RecordingFile.write(descriptor, Array("{}\n".utf8), to: url)
        } throws: { error in
            let error = error as! RecordingError
            return error.code == .io && error.message.contains(String(cString: strerror(ENOSPC)))
        }
    }
    #endif

    private static func event(_ entry: HubLogEntry) -> LogEvent {
        switch entry.event {
        case .change(let change): .change(change)
        case .registered(let version, let root): .registered(entry.storeID, version: version, root: root)
        case .reset(let version): .reset(entry.storeID, version: version)
        case .removed: .removed(entry.storeID)
        }
    }
}
