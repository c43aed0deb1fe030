public import Foundation
public import KeyscopeCore
public import KeyscopeInspector
public import KeyscopeProtocol
import Synchronization

/// Recordings as an inspector feature: `GET` and `POST /api/recordings`, `GET /api/recordings/:source/:name` and
/// `POST /api/recordings/recordings/:name/stop` (docs/recording.md, "HTTP").
///
/// ```swift
/// let hub = InspectorHub(registry: registry, features: [RecordingsFeature(RecordingLibrary(folder: folder))])
/// ```
/// Starting and stopping are refused on a read-only inspector (`read_only`): a recording writes a file and holds a
/// descriptor, which a client of a read-only inspector may not cost the host (the host's own code starts recordings
/// with ``HubRecorder``, whatever the mode). Without an endpoint every route answers `no_recordings`.
public final class RecordingsFeature: InspectorFeature {
    public let name = "recordings"
    private let slot: Mutex<(any RecordingsEndpoint)?>
    let link = HubLink()
    /// What a client's recording records, from its request's query; `nil`: this process's hub.
    let feeds: Feeds?

    /// Makes the feed of a recording a client starts, from the query of its `POST /api/recordings` (a fleet
    /// dashboard records the instance its `?instance=ID` names); the error refuses the start.
    public typealias Feeds = @Sendable (_ query: [String: String]) throws(HubError) -> any RecorderFeed

    public init(_ endpoint: (any RecordingsEndpoint)? = nil, feeds: Feeds? = nil) {
        slot = Mutex(endpoint)
        self.feeds = feeds
    }

    /// The recordings served; safe to set from any thread, also while the server runs.
    public var endpoint: (any RecordingsEndpoint)? {
        get { slot.withLock { $0 } }
        set { slot.withLock { $0 = newValue } }
    }

    public func attached(to hub: InspectorHub) { link.set(hub) }

    /// The recordings a client may load, and those in progress (`GET /api/recordings`).
    public func listing() throws(HubError) -> StoreValue {
        try loaded().listing()
    }

    /// The file of one listed recording (`GET /api/recordings/<source>/<name>`).
    public func file(source: String, name: String) throws(HubError) -> URL {
        try loaded().file(source: source, name: name)
    }

    /// Starts a recording (`POST /api/recordings`) of this process, or of what ``feeds`` makes of `query`;
    /// `read_only` on a read-only hub.
    public func start(_ request: RecordingRequest, query: [String: String] = [:]) throws(HubError) -> StoreValue {
        let hub = try link.hub(of: name)
        try refuseIfReadOnly(hub)
        guard let feeds else { return try loaded().start(request) { HubFeed(hub: hub) } }
        let feed = try feeds(query)
        return try loaded().start(request) { feed }
    }

    /// Stops a recording of this process and returns its final status; `read_only` on a read-only hub.
    public func stop(name recording: String) throws(HubError) -> StoreValue {
        try refuseIfReadOnly(try link.hub(of: name))
        return try loaded().stop(name: recording)
    }

    /// The refusal of a recording's start or stop by a read-only inspector.
    static func readOnlyRefusal(_ reason: String?) -> HubError {
        HubError(
            code: .readOnly,
            message: "the inspector is read-only\(reason.map { " (\($0))" } ?? ""): a client may list and download "
                + "recordings, not start or stop them")
    }

    private func refuseIfReadOnly(_ hub: InspectorHub) throws(HubError) {
        if hub.options.readOnly { throw Self.readOnlyRefusal(hub.options.readOnlyReason) }
    }

    private func loaded() throws(HubError) -> any RecordingsEndpoint {
        guard let endpoint else {
            throw HubError(
                code: .noRecordings,
                message: "this process keeps no recordings; an embedding service serves them with "
                    + "RecordingsFeature(…) among the inspector's features")
        }
        return endpoint
    }
}
