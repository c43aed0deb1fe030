import Foundation
import KeyscopeSecrets
import Testing

@Suite("MemorySecretStore")
struct MemorySecretStoreTests {
    @Test("does what every secret store does")
    func conformance() throws {
        let store = MemorySecretStore(appID: "dev.keyscope.tests.app")
        try checkConformance(of: store, other: MemorySecretStore(appID: "dev.keyscope.tests.other"))
        #expect(store.backendName == "memory")
        #expect(store.appID == "dev.keyscope.tests.app")
    }

    @Test("starts from the items it is given")
    func initialItems() throws {
        let then = Date(timeIntervalSince1970: 1_000)
        let store = MemorySecretStore(
            appID: "com.shop",
            items: [
                SecretItem(service: "api", account: "b", value: Data("2".utf8)),
                SecretItem(service: "api", account: "a", value: Data("1".utf8), modified: then),
            ]
        )
        let items = try store.items(service: "api")
        #expect(items.map(\.account) == ["a", "b"])
        #expect(items.first?.modified == then)
        #expect(items.last?.modified != nil)
    }

    @Test("fails the calls it is told to, until told to stop")
    func failures() throws {
        let store = MemorySecretStore(appID: "com.shop")
        try store.write(Data("v".utf8), service: "api", account: "token")
        let refused = SecretStoreError(code: .unavailable, message: "keyring locked")
        store.failWith(refused, on: .writes)
        #expect(throws: refused) { try store.write(Data("w".utf8), service: "api", account: "token") }
        #expect(throws: refused) { try store.delete(service: "api", account: "token") }
        #expect(try store.read(service: "api", account: "token") == Data("v".utf8))
        store.failWith(refused, on: .reads)
        #expect(throws: refused) { try store.services() }
        #expect(throws: refused) { try store.items(service: "api") }
        #expect(throws: refused) { try store.read(service: "api", account: "token") }
        try store.write(Data("w".utf8), service: "api", account: "token")
        store.failWith(nil)
        #expect(try store.read(service: "api", account: "token") == Data("w".utf8))
    }
}
