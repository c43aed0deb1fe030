import KeyscopeClient
import KeyscopeCore
import KeyscopeInspector
import KeyscopePreferences
import KeyscopeRecording
import KeyscopeServiceLifecycle
import KeyscopeTunables
import Logging
import Testing

@testable import KeyscopeServer

/// `Inspector.start(features:)` and `InspectorService(features:)` add the preference features to the hub.
@Suite(.serialized) struct PreferenceEmbeddingTests {
    func options() -> ServerOptions {
        var options = ServerOptions()
        options.port = 0
        options.writesServerRecord = false
        return options
    }

    /// `Inspector.start` takes features (checked by its signature: starting one here would race EmbeddingTests,
    /// which expects `Inspector.running` to be empty once its own handle stopped); ``InspectorService`` below runs
    /// the same wiring (`Inspector.makeServer`) for real.
    @Test func startTakesFeatures() {
        let start:
            (StoreRegistry, ServerOptions, HubOptions?, [any InspectorFeature], Bool, Logger) throws(ServerError)
                -> InspectorHandle? = Inspector.start
        _ = start
    }

    @Test func theServiceServesThemAndWithoutThemHasNoSuchRoutes() throws {
        let registry = StoreRegistry()
        let preferences = try FakePreferences(registry: registry, suites: PreferenceHarness.suites)
        let watches = FakeWatches()
        let service = try #require(
            InspectorService(
                registry: registry, options: options(),
                features: [PreferencesFeature(preferences), WatchesFeature(watches)]))
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
        #expect(bare.server.hub.features.isEmpty)
        let bareClient = HTTPClient(
            endpoint: InspectorEndpoint(
                host: "127.0.0.1", port: try #require(bare.server.port), token: try #require(bare.server.token)))
        #expect(try bareClient.send(method: "GET", target: "/api/preferences").error?.code == "not_found")
        #expect(try bareClient.send(method: "GET", target: "/api/watches").error?.code == "not_found")
    }

    @Test func theServiceAttachesThemToItsHub() throws {
        let registry = StoreRegistry()
        let preferences = try FakePreferences(registry: registry, suites: [:])
        let watches = FakeWatches()
        let service = try #require(
            InspectorService(
                registry: registry, options: options(),
                features: [PreferencesFeature(preferences), WatchesFeature(watches)]))
        #expect(service.server.hub.feature(PreferencesFeature.self)?.endpoint === preferences)
        #expect(service.server.hub.feature(WatchesFeature.self)?.endpoint === watches)
    }
}
