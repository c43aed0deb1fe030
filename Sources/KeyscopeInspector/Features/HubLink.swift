public import KeyscopeProtocol
import Synchronization

/// The hub a feature was added to, held weakly (the hub holds its features): what the package's features keep
/// from ``InspectorFeature/attached(to:)``.
package final class HubLink: Sendable {
    private struct Weak: @unchecked Sendable {
        weak var hub: InspectorHub?
    }

    private let slot = Mutex(Weak())

    package init() {}

    package func set(_ hub: InspectorHub) { slot.withLock { $0.hub = hub } }

    /// The hub, if the feature was added to one that is still alive.
    package var current: InspectorHub? { slot.withLock { $0.hub } }

    /// The hub, or `bad_request` naming the feature when it was never added to one (or the hub is gone).
    package func hub(of feature: String) throws(HubError) -> InspectorHub {
        guard let hub = slot.withLock({ $0.hub }) else {
            throw .badRequest("the \(feature) feature is not added to an inspector hub (InspectorHub.add(_:))")
        }
        return hub
    }
}
