#if canImport(Glibc)
import Foundation
import Testing

@testable import KeyscopeSecrets

/// Against a real gnome-keyring on a private session bus (``PrivateKeyring``): never the developer's keyring.
@Suite("SecretServiceStore (private gnome-keyring)", .serialized, .privateKeyring, .timeLimit(.minutes(2)))
struct SecretServiceStoreTests {
    private func keyring() throws -> PrivateKeyring {
        try #require(PrivateKeyring.current, "the suite runs inside the .privateKeyring trait")
    }

    @Test("does what every secret store does")
    func conformance() throws {
        let store = try SecretServiceStore(appID: "dev.keyscope.tests.app")
        try checkConformance(of: store, other: try SecretServiceStore(appID: "dev.keyscope.tests.other"))
        #expect(store.backendName == "secret-service")
    }

    @Test("keeps one item per account when a value switches between text and base64")
    func encodingSwitch() throws {
        let store = try SecretServiceStore(appID: "dev.keyscope.tests.encoding")
        defer { _ = try? store.delete(service: "api", account: "key") }
        let binary = Data([0xFF, 0xFE, 0x00, 0x01])
        try store.write(Data("text".utf8), service: "api", account: "key")
        try store.write(binary, service: "api", account: "key")
        var raw = try store.search(service: "api", account: "key", secrets: true, "inspect")
        #expect(raw.count == 1)
        #expect(raw.first?.attributes["encoding"] == "base64")
        #expect(raw.first?.secret == Data(binary.base64EncodedString().utf8))
        try store.write(Data("text again".utf8), service: "api", account: "key")
        raw = try store.search(service: "api", account: "key", secrets: true, "inspect")
        #expect(raw.count == 1)
        #expect(raw.first?.attributes["encoding"] == "text")
        #expect(raw.first?.secret == Data("text again".utf8))
        #expect(try store.read(service: "api", account: "key") == Data("text again".utf8))
    }

    @Test("a second store sees the first one's writes and deletes at once")
    func secondInstance() throws {
        let first = try SecretServiceStore(appID: "dev.keyscope.tests.shared")
        let second = try SecretServiceStore(appID: "dev.keyscope.tests.shared")
        try first.write(Data("one".utf8), service: "api", account: "token")
        #expect(try second.read(service: "api", account: "token") == Data("one".utf8))
        try second.write(Data("two".utf8), service: "api", account: "token")
        #expect(try first.items(service: "api").map(\.value) == [Data("two".utf8)])
        #expect(try second.delete(service: "api", account: "token"))
        #expect(try first.read(service: "api", account: "token") == nil)
        #expect(try first.delete(service: "api", account: "token") == false)
    }

    @Test("takes the modification time from the item")
    func modificationTime() throws {
        let store = try SecretServiceStore(appID: "dev.keyscope.tests.time")
        defer { _ = try? store.delete(service: "api", account: "token") }
        try store.write(Data("v".utf8), service: "api", account: "token")
        let modified = try #require(try store.items(service: "api").first?.modified)
        #expect(abs(modified.timeIntervalSinceNow) < 5)
        #expect(modified.timeIntervalSince1970.rounded() == modified.timeIntervalSince1970, "whole seconds")
    }

    @Test("the factory picks the Secret Service when a keyring runs on the session bus")
    func factoryPicksSecretService() throws {
        let keyring = try keyring()
        #expect(SessionBusProbe.secretServiceAnswers(at: keyring.busAddress))
        let chosen = try SecretStores.default(
            appID: "dev.keyscope.tests.factory", directory: keyring.root, sessionBusAddress: keyring.busAddress)
        #expect(chosen.backendName == "secret-service")
        #expect(chosen.appID == "dev.keyscope.tests.factory")
        // The public entry point reads DBUS_SESSION_BUS_ADDRESS, which the fixture points at the private bus.
        #expect(
            try SecretStores.default(appID: "dev.keyscope.tests.factory", directory: keyring.root).backendName
                == "secret-service")
    }
}
#endif
