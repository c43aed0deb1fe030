import Foundation
import Testing

@testable import KeyscopeCore

/// The ids transactions get: random version-4 UUIDs like `UUID()`, without its file open per call.
@Suite struct TransactionIDTests {
    @Test func isAVersionFourRFCVariantUUID() {
        for _ in 0..<200 {
            let text = UUID.transactionID().uuidString
            #expect(
                text.wholeMatch(of: /[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}/) != nil,
                "\(text)")
        }
    }

    @Test func isNewEachTimeAndUsesAllItsRandomBits() {
        let ids = (0..<2000).map { _ in UUID.transactionID() }
        #expect(Set(ids).count == ids.count)
        // Every one of the 122 random bits is set in some id and clear in another.
        var ored = [UInt8](repeating: 0, count: 16)
        var anded = [UInt8](repeating: 0xFF, count: 16)
        for id in ids {
            withUnsafeBytes(of: id.uuid) { bytes in
                for index in 0..<16 {
                    ored[index] |= bytes[index]
                    anded[index] &= bytes[index]
                }
            }
        }
        let fixedOnes: [UInt8] = [0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0]
        let fixedZeros: [UInt8] = [0, 0, 0, 0, 0, 0, 0xB0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0]
        #expect(anded == fixedOnes)
        #expect(ored == fixedZeros.map { ~$0 })
    }

    @Test func aTransactionsChangeCarriesOne() throws {
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory))
        let change = try #require(try store.apply([.set("a", 1), .set("b", 2)]))
        let id = try #require(change.transactionID)
        #expect(id.uuidString.dropFirst(14).first == "4")
    }
}
