import Foundation
import KeyscopeCore
import Testing

@testable import KeyscopeInspector

/// The writes the hub applies for clients make their entry's estimate and line on the writer's thread, before the
/// entry is published (the server's service thread reads it next), and the line is the one a reader would make.
@Suite struct PreparedLineTests {
    @Test func aClientsWriteIsPublishedWithItsLineMadeAndTheSameBytes() throws {
        let hub = startedHub()
        let store = try addStore(hub, "prep", root: ["cart": ["total": 90, "items": [1, 2]]])
        let members = Dictionary(uniqueKeysWithValues: (0..<500).map { ("m\($0)", StoreValue.integer(Int64($0))) })
        var seqs: [Int] = []
        seqs.append(
            try #require(try hub.write(store: "scenario:prep/memory", op: "set", path: "cart.total", value: 100)))
        seqs.append(
            try #require(
                try hub.write(store: "scenario:prep/memory", op: "merge", path: "wide", value: .object(members))))
        seqs.append(
            try #require(
                try hub.transaction(
                    store: "scenario:prep/memory",
                    ops: [
                        HubWrite(op: "insert", path: "cart.items[0]", value: "é \"q\""),
                        HubWrite(op: "remove", path: "cart.total"),
                    ])))
        seqs.append(try #require(try hub.revert(seq: seqs[1])))
        for seq in seqs {
            let entry = try #require(hub.entry(seq: seq))
            #expect(entry.isEncoded, "entry \(seq) was published without its line")
            let idSize = JSONSizeEstimate.string(entry.storeID.description)
            #expect(entry.recordedEstimate == HubLogEntry.estimate(entry.event, storeIDSize: idSize))
            #expect(entry.lineBytes == entry.jsonObject.jsonBytes(sortedKeys: true))
            #expect(entry.lineBytes == entry.lineBytes)
        }
        // The store's own writers (the app) leave the line to the first reader, as before.
        store.set("cart.note", "hi")
        let appWrite = try #require(hub.entry(seq: hub.lastSeq))
        #expect(!appWrite.isEncoded)
        #expect(appWrite.lineBytes == appWrite.jsonObject.jsonBytes(sortedKeys: true))
    }
}
