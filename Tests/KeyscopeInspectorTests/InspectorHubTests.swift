import KeyscopeCore
import KeyscopeInspector
import Testing

@Suite struct InspectorHubTests {
    @Test func hubObservesTheRegistryItIsGiven() {
        let registry = StoreRegistry()
        #expect(InspectorHub(registry: registry).registry === registry)
    }
}
