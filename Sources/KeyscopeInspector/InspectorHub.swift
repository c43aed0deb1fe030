public import KeyscopeCore

/// The inspector hub: sequences every change of every registered store. (Being built: see issue 3.)
public final class InspectorHub: Sendable {
    public let registry: StoreRegistry

    public init(registry: StoreRegistry = .shared) {
        self.registry = registry
    }
}
