import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import Testing

/// The error a hub request throws, or nil when it succeeds.
func refusal(_ request: () throws -> Int?) -> HubError? {
    do {
        _ = try request()
        return nil
    } catch {
        return error as? HubError
    }
}

/// Writes and transactions from clients: validated fully, all or nothing, returning the seq of their change.
@Suite struct WriteTests {
    @Test func aWriteReturnsTheSeqOfTheChangeItMade() throws {
        let hub = startedHub()
        let store = try addStore(hub, "w", root: ["cart": ["total": 90]])
        let seq = try hub.write(store: "scenario:w/memory", op: "set", path: "cart.total", value: 100)
        #expect(seq == 2)
        #expect(
            hub.entry(seq: 2)?.change?.patches == [
                StorePatch(op: .set, keyPath: "cart.total", oldValue: 90, newValue: 100)
            ])
        #expect(hub.entry(seq: 2)?.change?.transactionID == nil)
        #expect(store.get("cart.total") == 100)
    }

    @Test func removingAMissingPathChangesNothingAndReturnsNil() throws {
        let hub = startedHub()
        try addStore(hub, "w")
        #expect(try hub.write(store: "scenario:w/memory", op: "remove", path: "nothing.here", value: nil) == nil)
        #expect(hub.lastSeq == 1)
    }

    @Test func everyOpWorksThroughTheHub() throws {
        let hub = startedHub()
        let store = try addStore(hub, "ops", root: ["items": ["a"]])
        let id = "scenario:ops/memory"
        #expect(try hub.write(store: id, op: "insert", path: "items[0]", value: "z") == 2)
        #expect(try hub.write(store: id, op: "merge", path: "user", value: ["name": "A"]) == 3)
        #expect(try hub.write(store: id, op: "remove", path: "items[1]", value: nil) == 4)
        #expect(try hub.write(store: id, op: "set", path: #"prefs["com.app.theme"]"#, value: "dark") == 5)
        #expect(store.snapshot() == ["items": ["z"], "user": ["name": "A"], "prefs": ["com.app.theme": "dark"]])
    }

    @Test func everyRefusalHasItsProtocolCodeAndChangesNothing() throws {
        let hub = startedHub()
        let store = try addStore(hub, "e", root: ["n": 1, "list": [1, 2], "obj": ["k": true]])
        let id = "scenario:e/memory"
        let cases: [(HubError.Code, () throws -> Int?)] = [
            (.badRequest, { try hub.write(store: id, op: "replace", path: "n", value: 2) }),
            (.badRequest, { try hub.write(store: id, op: "set", path: "n", value: nil) }),
            (.badRequest, { try hub.write(store: id, op: "remove", path: "n", value: 1) }),
            (.badRequest, { try hub.write(store: id, op: "remove", path: "", value: nil) }),
            (.badRequest, { try hub.write(store: id, op: "insert", path: "list", value: 3) }),
            (.badRequest, { try hub.transaction(store: id, ops: []) }),
            (.unknownStore, { try hub.write(store: "nope", op: "set", path: "n", value: 2) }),
            (.unknownStore, { try hub.write(store: "app/memory", op: "set", path: "n", value: 2) }),
            (.badPath, { try hub.write(store: id, op: "set", path: "a..b", value: 2) }),
            (.typeMismatch, { try hub.write(store: id, op: "set", path: "n.x", value: 2) }),
            (.typeMismatch, { try hub.write(store: id, op: "set", path: "obj[0]", value: 2) }),
            (.typeMismatch, { try hub.write(store: id, op: "merge", path: "obj", value: 2) }),
            (.typeMismatch, { try hub.write(store: id, op: "set", path: "", value: 2) }),
            (.outOfRange, { try hub.write(store: id, op: "set", path: "list[5]", value: 2) }),
            (.outOfRange, { try hub.write(store: id, op: "insert", path: "list[3]", value: 2) }),
        ]
        let before = store.snapshot()
        for (index, (code, request)) in cases.enumerated() {
            let error = refusal(request)
            #expect(error?.code == code, "case \(index): \(String(describing: error))")
            #expect(error?.message.isEmpty == false)
        }
        #expect(store.snapshot() == before && hub.lastSeq == 1)
        #expect(
            refusal { try hub.write(store: id, op: "set", path: "a..b", value: 2) }?
                .message.contains("column 3") == true)
    }

    @Test func aReadOnlyHubRefusesEveryWriteBeforeValidatingIt() throws {
        let hub = startedHub(readOnly: true)
        let store = try addStore(hub, "ro")
        store.set("a", 1)
        let requests: [() throws -> Int?] = [
            { try hub.write(store: "scenario:ro/memory", op: "set", path: "a", value: 2) },
            { try hub.write(store: "nope", op: "bogus", path: "a..b", value: nil) },
            { try hub.transaction(store: "scenario:ro/memory", ops: []) },
            { try hub.revert(seq: 2) },
            { try hub.revert(seq: 999) },
        ]
        for request in requests { #expect(refusal(request)?.code == .readOnly) }
        #expect(store.get("a") == 1 && hub.lastSeq == 2)
    }

    @Test func aTransactionIsOneChangeWithOneTxnAllOrNothing() throws {
        let hub = startedHub()
        let store = try addStore(hub, "t", root: ["list": [1]])
        let id = "scenario:t/memory"
        let seq = try hub.transaction(
            store: id,
            ops: [HubWrite(op: "set", path: "a", value: 1), HubWrite(op: "insert", path: "list[0]", value: 0)])
        #expect(seq == 2)
        let change = try #require(hub.entry(seq: 2)?.change)
        #expect(change.transactionID != nil && change.patches.count == 2)
        // A single op is a transaction too.
        #expect(try hub.transaction(store: id, ops: [HubWrite(op: "set", path: "b", value: 2)]) == 3)
        #expect(hub.entry(seq: 3)?.change?.transactionID != nil)
        // A bad third op: the first two are not applied; the error names it.
        let before = store.snapshot()
        let invalid = refusal {
            try hub.transaction(
                store: id,
                ops: [
                    HubWrite(op: "set", path: "c", value: 3), HubWrite(op: "remove", path: "a"),
                    HubWrite(op: "set", path: "x[", value: 1),
                ])
        }
        #expect(invalid?.code == .badPath && invalid?.message.hasPrefix("ops[2]: ") == true)
        let failing = refusal {
            try hub.transaction(
                store: id,
                ops: [HubWrite(op: "set", path: "c", value: 3), HubWrite(op: "set", path: "list[9]", value: 1)])
        }
        #expect(failing?.code == .outOfRange)
        #expect(store.snapshot() == before && hub.lastSeq == 3)
        // Writes that fold back to nothing record no change.
        #expect(
            try hub.transaction(
                store: id, ops: [HubWrite(op: "set", path: "z", value: 1), HubWrite(op: "remove", path: "z")]) == nil)
    }

    @Test func concurrentWritesEachGetTheSeqOfTheirOwnChange() throws {
        let hub = startedHub()
        let stores = try (0..<2).map { try addStore(hub, "c\($0)") }
        // A subscriber that writes back: its writes run on the writing thread, after the write's own change.
        let echo = stores[0].publisher(for: "k0").sink { value in
            if let n = value?.integerValue { stores[0].set("echo", .integer(n)) }
        }
        defer { echo.cancel() }
        let results = Collected<(Int, Int, Int?)>()
        concurrently(6) { worker in
            for n in 0..<200 {
                if worker >= 4 {  // plain store writers in between
                    stores[worker % 2].set(StoreKeyPath(segments: [.key("plain\(worker)")]), .integer(Int64(n)))
                    continue
                }
                let seq = try? hub.write(
                    store: stores[worker % 2].id.description, op: "set", path: "k\(worker % 2)",
                    value: .integer(Int64(worker * 1000 + n)))
                results.append((worker, n, seq))
            }
        }
        let all = results.all
        #expect(all.count == 800)
        #expect(Set(all.compactMap(\.2)).count == 800)
        for (worker, n, seq) in all {
            let written = try #require(seq)
            let patch = try #require(hub.entry(seq: written)?.change?.patches.first)
            #expect(patch.keyPath.description == "k\(worker % 2)")
            #expect(patch.newValue == .integer(Int64(worker * 1000 + n)))
        }
    }
}

/// The `created` part of a write's result: which key a write made out of nothing (a misspelt path shows there).
@Suite struct WriteCreatedTests {
    @Test func aWriteIntoAMissingTopLevelKeyNamesThatKey() throws {
        let hub = startedHub()
        let store = try addStore(hub, "c", root: ["cart": ["total": 90]])
        let result = try hub.writeReporting(store: "scenario:c/memory", op: "set", path: "crat.total", value: 5)
        #expect(result.seq == 2)
        #expect(result.created == "crat")
        #expect(result.jsonObject == ["seq": 2, "created": ["crat"]])
        #expect(store.get("crat.total") == 5)
    }

    @Test func aNewKeyUnderAnExistingObjectIsNamedWithItsWholePath() throws {
        let hub = startedHub()
        try addStore(hub, "c", root: ["cart": ["total": 90]])
        let result = try hub.writeReporting(store: "scenario:c/memory", op: "set", path: "cart.coupn", value: "X")
        #expect(result.created == "cart.coupn")
        #expect(result.jsonObject["created"] == ["cart.coupn"])
    }

    @Test func writesToExistingKeysArrayElementsAndRemovesCreateNothing() throws {
        let hub = startedHub()
        try addStore(hub, "c", root: ["cart": ["total": 90], "items": ["a"], "gone": 1])
        let id = "scenario:c/memory"
        let changed = try hub.writeReporting(store: id, op: "set", path: "cart.total", value: 91)
        #expect(changed.seq == 2 && changed.created == nil)
        #expect(changed.jsonObject == ["seq": 2])
        let appended = try hub.writeReporting(store: id, op: "insert", path: "items[1]", value: "b")
        #expect(appended.seq == 3 && appended.created == nil)
        let merged = try hub.writeReporting(store: id, op: "merge", path: "cart", value: ["coupon": "S"])
        #expect(merged.seq == 4 && merged.created == nil, "merge into an existing object")
        let removed = try hub.writeReporting(store: id, op: "remove", path: "gone", value: nil)
        #expect(removed.seq == 5 && removed.created == nil)
    }

    @Test func aWriteThatChangesNothingReportsNoSeqAndNoKey() throws {
        let hub = startedHub()
        try addStore(hub, "c", root: ["n": 1])
        let result = try hub.writeReporting(store: "scenario:c/memory", op: "remove", path: "missing", value: nil)
        #expect(result == HubWriteResult(seq: nil))
        #expect(result.jsonObject == ["seq": .null])
    }

    @Test func aRefusedWriteThrowsAndCreatesNothing() throws {
        let hub = startedHub()
        let store = try addStore(hub, "c", root: ["n": 1])
        #expect(throws: HubError.self) {
            try hub.writeReporting(store: "scenario:c/memory", op: "set", path: "n.x", value: 2)
        }
        #expect(store.snapshot() == ["n": 1])
    }
}
