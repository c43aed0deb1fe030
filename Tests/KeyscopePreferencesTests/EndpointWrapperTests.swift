import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopePreferences
import KeyscopeProtocol
import KeyscopeSecrets
import Synchronization
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// An edit made through the inspector (what the dashboard sends) reaches the app's property wrappers in the same
/// process: their publishers deliver the new value without the app asking.
@Suite struct EndpointWrapperTests {
    @Test func aPreferenceEditReachesAUserDefaultValuePublisher() throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("wrapped", "theme", "\"dark\"")
        let repository = try sandbox.repository()
        let hub = sandbox.hub(repository)
        defer { hub.stop() }
        // The scanner opens an injected folder's suites by their absolute names; the app's wrapper does the same.
        let suite = sandbox.config.appendingPathComponent("wrapped").path
        let theme = UserDefaultValue<String>("theme", defaultValue: "system", suite: suite)
        #expect(theme.wrappedValue == "dark")
        let seen = Mutex<[String]>([])
        let subscription = theme.projectedValue.publisher.sink { value in seen.withLock { $0.append(value) } }
        defer { subscription.cancel() }

        let seq = try hub.preferencesFeature.update(
            PreferenceRef(source: .userDefaults, container: "wrapped", key: "theme"), value: "light")
        #expect(seq != nil)
        #expect(WrapperTesting.eventually { seen.withLock { $0.last } == "light" }, "\(seen.withLock { $0 })")
        #expect(theme.wrappedValue == "light")
    }

    @Test func aSecretEditReachesAKeychainValuePublisherAndTheMirrorStaysRedacted() throws {
        let sandbox = try PrefsSandbox()
        let secrets = MemorySecretStore(appID: "com.keyscope.tests")
        try secrets.write(Data("old-token".utf8), service: "svc", account: "token")
        let repository = try sandbox.repository(secrets: secrets)
        let hub = sandbox.hub(repository)
        defer { hub.stop() }
        let token = KeychainValue<String>("token", defaultValue: "", service: "svc", store: secrets)
        #expect(token.wrappedValue == "old-token")
        let seen = Mutex<[String]>([])
        let subscription = token.projectedValue.publisher.sink { value in seen.withLock { $0.append(value) } }
        defer { subscription.cancel() }

        try hub.preferencesFeature.update(
            PreferenceRef(source: .secrets, container: "svc", key: "token"), value: "new-token-1")
        #expect(WrapperTesting.eventually { seen.withLock { $0.last } == "new-token-1" }, "\(seen.withLock { $0 })")
        let mirror = try #require(
            sandbox.registry.store(StoreID(scope: .app, storage: .secrets(service: "svc"))))
        #expect(mirror.get("token") == "•••• (11)")
    }
}
