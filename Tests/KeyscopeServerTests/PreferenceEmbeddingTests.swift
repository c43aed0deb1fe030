import KeyscopeClient
import KeyscopeCore
import KeyscopeInspector
import KeyscopeServiceLifecycle
import Logging
import Testing

@testable import KeyscopeServer

/// `Inspector.start(preferences:watches:)` and `InspectorService(preferences:watches:)` attach them to the hub.
@Suite(.serialized) struct PreferenceEmbeddingTests {
    func options() -> ServerOptions {
        var options = ServerOptions()
        options.port = 0
        options.writesServerRecord = false
        return options
    }

    /// `Inspector.start` takes them (checked by its signature: starting one here would race EmbeddingTests, which
    /// expects `Inspector.running` to be empty once its own handle stopped); ``InspectorService`` below runs the same
    /// wiring for real.
    @Test func startTakesPreferencesAndWatches() {
        let start:
            (
                StoreRegistry, ServerOptions, HubOptions?, (any TunablesEndpoint)?, (any PreferencesEndpoint)?,
                (any WatchesEndpoint)?, (any RecordingsEndpoint)?, Bool, Logger
            ) throws(ServerError) -> InspectorHandle? = Inspector.start
        _ = start
    }

    @Test func theServiceServesThemAndWithoutThemAnswersNoPreferencesAndNoWatches() throws {
        let registry = StoreRegistry()
        let preferences = try FakePreferences(registry: registry, suites: PreferenceHarness.suites)
        let watches = FakeWatches()
        let service = try #require(
            InspectorService(registry: registry, options: options(), preferences: preferences, watches: watches))
        try service.server.start()
        defer { service.server.stop() }
        let client = HTTPClient(
            endpoint: InspectorEndpoint(
                host: "127.0.0.1", port: try #require(service.server.port), token: try #require(service.server.token)))
        #expect(try client.send(method: "GET", target: "/api/preferences").status == 200)
        let set = try client.send(
            method: "PUT", target: "/api/preferences/userDefaults/com.shop/theme", body: Array(#"{"value":"x"}"#.utf8))
        #expect(set.status == 200)
        #expect(try set.json()["seq"]?.integerValue == Int64(service.server.hub.lastSeq))
        #expect(try client.send(method: "POST", target: "/api/watches/refresh").status == 200)
        #expect(watches.refreshCount == 1)

        let bare = try #require(InspectorService(registry: StoreRegistry(), options: options()))
        try bare.server.start()
        defer { bare.server.stop() }
        #expect(bare.server.hub.preferences == nil)
        #expect(bare.server.hub.watches == nil)
        let bareClient = HTTPClient(
            endpoint: InspectorEndpoint(
                host: "127.0.0.1", port: try #require(bare.server.port), token: try #require(bare.server.token)))
        #expect(try bareClient.send(method: "GET", target: "/api/preferences").error?.code == "no_preferences")
        #expect(try bareClient.send(method: "GET", target: "/api/watches").error?.code == "no_watches")
    }

    @Test func theServiceAttachesThemToItsHub() throws {
        let registry = StoreRegistry()
        let preferences = try FakePreferences(registry: registry, suites: [:])
        let watches = FakeWatches()
        let service = try #require(
            InspectorService(registry: registry, options: options(), preferences: preferences, watches: watches))
        #expect(service.server.hub.preferences === preferences)
        #expect(service.server.hub.watches === watches)
    }
}
