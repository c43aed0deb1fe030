import Foundation
import Testing

@testable import KeyscopeSecrets

@Suite("SecretStores.default")
struct SecretStoresTests {
    #if canImport(Glibc)
    @Test(
        "falls back to the file store without a session bus, or with one that does not answer",
        arguments: [
            nil, "", "unix:path=/nonexistent/keyscope-no-bus", "not an address",
        ])
    func fileWithoutKeyring(address: String?) throws {
        try withTemporaryDirectory { directory in
            let store = try SecretStores.default(
                appID: "com.shop", directory: directory, sessionBusAddress: address)
            #expect(store.backendName == "file")
            #expect(store.appID == "com.shop")
            #expect(
                (store as? FileSecretStore)?.fileURL.path
                    == directory.appendingPathComponent(
                        "com.shop.secrets.json"
                    ).path)
        }
    }

    @Test("the probe says no for a bus that is not there")
    func probeWithoutBus() {
        #expect(!SessionBusProbe.secretServiceAnswers(at: "unix:path=/nonexistent/keyscope-no-bus"))
        #expect(!SessionBusProbe.secretServiceAnswers(at: ""))
    }
    #endif

    @Test("refuses an app ID that no store accepts")
    func badAppID() throws {
        try withTemporaryDirectory { directory in
            let error = #expect(throws: SecretStoreError.self) {
                try SecretStores.default(appID: "", directory: directory)
            }
            #expect(error?.code == .badName)
        }
    }
}
