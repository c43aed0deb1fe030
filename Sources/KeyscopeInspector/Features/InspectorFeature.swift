public import KeyscopeProtocol

/// A capability of the inspector beyond the change stream (tunables, preferences, watches, recordings…): what it
/// serves over HTTP and the WebSocket, plugged into a hub through one seam so that neither the hub nor the server
/// names it.
///
/// ```swift
/// let hub = InspectorHub(registry: .shared)
/// hub.add(TunablesFeature(tunables))          // its routes and its `tune` request are served from now on
/// ```
/// A feature declares its HTTP routes (``FeatureRoute``: method, path, body, whether it writes) and its request
/// types (``FeatureRequest``); the server derives routing, 404, 405 with `Allow`, HEAD, the token check and the
/// read-only refusal from them. Handlers run on the server's worker threads (a client's requests one at a time and in
/// order, two clients' requests possibly at once), never on its service thread; reach the stores only through the
/// hub's validated write path (``InspectorHub/apply(_:to:transaction:)`` and its kin), so that every change a client
/// asks for is in the log like any other.
public protocol InspectorFeature: AnyObject, Sendable {
    /// A short lowercase name (`tunables`), for logs and the list of features.
    var name: String { get }

    /// The HTTP routes it serves. Read once when the feature is added.
    var routes: [FeatureRoute] { get }

    /// The request types it answers on the WebSocket and `POST /api/request`. Read once when the feature is added.
    var requests: [FeatureRequest] { get }

    /// The stream for a WebSocket client that upgraded with `query` (the `/ws` URL's query parameters), when this
    /// feature serves it instead of the hub; `nil` to leave it to the hub (or the next feature). A thrown error
    /// refuses the upgrade with its code's HTTP status.
    func stream(for query: [String: String]) throws(HubError) -> (any FeatureStream)?
    /// Called once when the feature is added to `hub`, before any of its handlers runs. A feature keeps the hub
    /// weakly (or not at all): the hub holds its features.
    func attached(to hub: InspectorHub)
}

extension InspectorFeature {
    /// No WebSocket requests.
    public var requests: [FeatureRequest] { [] }

    /// Nothing to do.
    public func attached(to hub: InspectorHub) {}

    /// The hub's own stream for every client.
    public func stream(for query: [String: String]) throws(HubError) -> (any FeatureStream)? { nil }
}
