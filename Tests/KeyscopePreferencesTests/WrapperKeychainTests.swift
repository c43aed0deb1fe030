import Foundation
import KeyscopeCore
import KeyscopePreferences
import KeyscopeSecrets
import Synchronization
import Testing

@Suite struct KeychainValueTests {
    typealias Store = WrapperTesting.MemorySecretStore

    @Test func codableSecretsRoundTripAsJSONBytes() throws {
        let store = Store()
        @KeychainValue("credentials", defaultValue: nil, service: "com.shop.api", store: store)
        var credentials: SampleCredentials?
        @KeychainValue("pin", defaultValue: 0, service: "com.shop.api", store: store) var pin: Int
        @KeychainValue("scopes", defaultValue: [], service: "com.shop.api", store: store) var scopes: [String]

        credentials = SampleCredentials(user: "ann", token: "t-1")
        pin = 1234
        scopes = ["read", "write"]

        @KeychainValue("credentials", defaultValue: nil, service: "com.shop.api", store: store)
        var again: SampleCredentials?
        @KeychainValue("pin", defaultValue: 0, service: "com.shop.api", store: store) var pinAgain: Int
        @KeychainValue("scopes", defaultValue: [], service: "com.shop.api", store: store) var scopesAgain: [String]
        #expect(again == SampleCredentials(user: "ann", token: "t-1"))
        #expect(pinAgain == 1234)
        #expect(scopesAgain == ["read", "write"])
        #expect(store.item("com.shop.api", "credentials") == Data(#"{"token":"t-1","user":"ann"}"#.utf8))
        #expect(store.item("com.shop.api", "pin") == Data("1234".utf8))
    }

    @Test func theServiceDefaultsToTheStoresAppID() throws {
        let store = Store()
        @KeychainValue("token", defaultValue: "", store: store) var token: String
        token = "abc"
        #expect(store.item(store.appID, "token") == Data(#""abc""#.utf8))
    }

    @Test func rawTextWrittenByAnotherToolIsReadAsAString() throws {
        let store = Store()
        let service = "s.\(UUID().uuidString)"
        try store.write(Data("plain-token".utf8), service: service, account: "token")
        @KeychainValue("token", defaultValue: "", service: service, store: store) var token: String
        #expect(token == "plain-token")
    }

    @Test func theDefaultValueDeletesTheItem() throws {
        let store = Store()
        let service = "s.\(UUID().uuidString)"
        let monitor = WrapperTesting.RecordingMonitor()
        @KeychainValue("token", defaultValue: "", service: service, store: store, monitors: [monitor]) var token: String
        token = "secret"
        #expect(store.item(service, "token") != nil)
        token = ""
        #expect(store.item(service, "token") == nil)
        #expect(token == "")
        #expect(monitor.messages.map(\.kind) == [.written, .removed])
        token = ""  // nothing stored: no delete call
        #expect(store.state.withLock { $0.deletes } == 1)
    }

    @Test func writingTheStoredValueAgainCostsNoStoreWrite() throws {
        let store = Store()
        let service = "s.\(UUID().uuidString)"
        @KeychainValue("credentials", defaultValue: nil, service: service, store: store) var credentials:
            SampleCredentials?
        let value = SampleCredentials(user: "ann", token: "t")
        credentials = value
        credentials = value
        credentials = value
        #expect(store.state.withLock { $0.writes } == 1)
        credentials = SampleCredentials(user: "ann", token: "t2")
        #expect(store.state.withLock { $0.writes } == 2)
        _ = credentials
        _ = credentials
        #expect(store.state.withLock { $0.reads } == 1, "read once, then cached")
    }

    @Test func aFailingStoreGivesTheDefaultAndTellsTheMonitors() throws {
        let store = Store()
        let service = "s.\(UUID().uuidString)"
        let monitor = WrapperTesting.RecordingMonitor()
        try store.write(Data("7".utf8), service: service, account: "pin")
        store.state.withLock { $0.failReads = true }
        @KeychainValue("pin", defaultValue: 0, service: service, store: store, monitors: [monitor]) var pin: Int
        #expect(pin == 0)
        let error = try #require(monitor.errors.first)
        #expect(error.kind == .readFailed)
        #expect(error.source == .secrets)
        #expect(error.container == service)
        #expect(error.key == "pin")
        #expect(error.detail.contains("the keyring is locked"))

        store.state.withLock { $0.failReads = false }
        $pin.refresh()
        #expect(pin == 7)

        store.state.withLock { $0.failWrites = true }
        pin = 8
        #expect(pin == 7, "a failed write keeps the old value")
        #expect(monitor.errors.last?.kind == .writeFailed)
        #expect(monitor.errors.last?.detail.contains("the disk is full") == true)
    }

    @Test func thePublisherSendsTheValueThenEveryChange() throws {
        let store = Store()
        let service = "s.\(UUID().uuidString)"
        @KeychainValue("token", defaultValue: "", service: service, store: store) var token: String
        @KeychainValue("token", defaultValue: "", service: service, store: store) var sameItem: String
        let received = WrapperTesting.Received<String>()
        let watch = $token.publisher.sink { received.append($0) }
        defer { watch.cancel() }
        #expect(received.all == [""])
        token = "a"
        token = "a"
        #expect(received.all == ["", "a"])

        // Another wrapper of the item writes: its notification makes this one read the item again.
        sameItem = "b"
        #expect(received.all == ["", "a", "b"])
        #expect(token == "b")

        // Someone writes the store directly: refresh() picks it up.
        try store.write(Data(#""c""#.utf8), service: service, account: "token")
        $token.refresh()
        #expect(received.all == ["", "a", "b", "c"])
    }

    @Test func theBindingReadsAndWritesTheSecret() throws {
        let store = Store()
        let service = "s.\(UUID().uuidString)"
        @KeychainValue(
            "pin", defaultValue: 0, accessibility: .whenUnlockedThisDeviceOnly, service: service, store: store)
        var pin: Int
        let binding = $pin
        binding.wrappedValue = 42
        #expect(pin == 42)
        #expect(_pin.accessibility == .whenUnlockedThisDeviceOnly)
        #expect(_pin.key == "pin")
        #expect(KeychainAccessibility.afterFirstUnlock.keychainAttributeName == "kSecAttrAccessibleAfterFirstUnlock")
    }

    /// The only test that touches the process-wide default store.
    @Test func theConfiguredDefaultStoreIsUsedAndConfiguredOnce() throws {
        let monitor = WrapperTesting.RecordingMonitor()
        @KeychainValue("default-store-token", defaultValue: "none", monitors: [monitor]) var token: String
        if KeychainValueDefaults.store == nil {
            #expect(token == "none")
            #expect(monitor.errors.map(\.kind) == [.unavailable])
        }
        let store = Store()
        #expect(KeychainValueDefaults.configure(store: store, service: "com.keyscope.defaults"))
        #expect(!KeychainValueDefaults.configure(store: Store()), "later calls are ignored")
        #expect(KeychainValueDefaults.service == "com.keyscope.defaults")
        token = "set"
        #expect(store.item("com.keyscope.defaults", "default-store-token") == Data(#""set""#.utf8))
    }
}
