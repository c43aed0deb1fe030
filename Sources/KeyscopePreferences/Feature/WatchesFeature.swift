public import KeyscopeCore
public import KeyscopeInspector
public import KeyscopeProtocol
import Synchronization

/// Watched statuses and watch rules as an inspector feature: `GET /api/watches` and `POST /api/watches/refresh`
/// (docs/preferences.md, "The Watches panel"). Without an endpoint both answer `no_watches`.
public final class WatchesFeature: InspectorFeature {
    public let name = "watches"
    private let slot: Mutex<(any WatchesEndpoint)?>

    public init(_ endpoint: (any WatchesEndpoint)? = nil) {
        slot = Mutex(endpoint)
    }

    /// The watches served; safe to set from any thread, also while the server runs.
    public var endpoint: (any WatchesEndpoint)? {
        get { slot.withLock { $0 } }
        set { slot.withLock { $0 = newValue } }
    }

    /// What the dashboard's Watches panel shows (`GET /api/watches`).
    public func panel() throws(HubError) -> StoreValue {
        try loaded().panelDescription()
    }

    /// Re-reads every watched status now (`POST /api/watches/refresh`); allowed in read-only mode (the tracker only
    /// mirrors what the providers say).
    public func refresh() throws(HubError) {
        try loaded().refresh()
    }

    public var routes: [FeatureRoute] {
        [
            FeatureRoute(.get, PreferencePath.watches) { [unowned self] _ throws(HubError) in .json(try panel()) },
            FeatureRoute(.post, PreferencePath.watchesRefresh, body: .optionalJSON) {
                [unowned self] request throws(HubError) in
                try PreferencesFeature.refuseBody(request.body, of: PreferencePath.watchesRefresh)
                try refresh()
                return .json(.object(["ok": true]))
            },
        ]
    }

    private func loaded() throws(HubError) -> any WatchesEndpoint {
        guard let endpoint else {
            throw HubError(
                code: .noWatches,
                message: "this process has no watched statuses or watch rules; an embedding service serves them "
                    + "with WatchesFeature(…) among the inspector's features")
        }
        return endpoint
    }
}
