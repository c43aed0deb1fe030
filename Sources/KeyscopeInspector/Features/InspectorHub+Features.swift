public import KeyscopeProtocol
import Synchronization

extension InspectorHub {
    /// The features added to the hub, in the order they were added.
    public var features: [any InspectorFeature] { featureList.withLock { $0.features } }

    /// Every request type of the added features, read once when each was added (what every client request is
    /// matched against, so it is not gathered again per request).
    public var featureRequests: [FeatureRequest] { featureList.withLock { $0.requests } }

    /// Adds a feature: its routes and requests are served from now on (a running server picks them up at its next
    /// request). A feature is added once; a second feature with the same name is refused by a precondition.
    public func add(_ feature: any InspectorFeature) {
        let requests = feature.requests
        featureList.withLock { list in
            precondition(
                !list.features.contains { $0.name == feature.name }, "a feature named \(feature.name) is already added")
            list.features.append(feature)
            list.requests += requests
        }
        feature.attached(to: self)
    }

    /// The first added feature of type `type`.
    public func feature<Feature: InspectorFeature>(_ type: Feature.Type) -> Feature? {
        featureList.withLock { list in list.features.lazy.compactMap { $0 as? Feature }.first }
    }

    /// The first added feature of its type, or the one `make` makes, added now (for code that attaches to a hub
    /// it did not set up, and tests).
    public func feature<Feature: InspectorFeature>(orAdd make: () -> Feature) -> Feature {
        if let existing = feature(Feature.self) { return existing }
        let made = make()
        add(made)
        return made
    }

    /// How many features were added (changes whenever one is, so that a server can cache what it derived from them).
    public var featureCount: Int { featureList.withLock { $0.features.count } }

    /// The refusal of every write on a read-only hub, with ``HubOptions/readOnlyReason``.
    public var readOnlyRefusal: HubError {
        let why = options.readOnlyReason.map { " (\($0))" } ?? ""
        return HubError(
            code: .readOnly,
            message: "the inspector is read-only\(why) and refuses every write; write to a server that takes writes")
    }

    /// Throws ``readOnlyRefusal`` on a read-only hub.
    public func checkWritable() throws(HubError) {
        if options.readOnly { throw readOnlyRefusal }
    }
}

/// The features added to a hub, and their request types.
struct FeatureList {
    var features: [any InspectorFeature] = []
    var requests: [FeatureRequest] = []
}
