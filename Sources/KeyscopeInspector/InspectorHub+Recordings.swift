public import Foundation
public import KeyscopeCore
public import KeyscopeProtocol
import Synchronization

extension InspectorHub {
    /// The recordings that `/api/recordings` serves; `nil` (the default) when this process has none, and those
    /// requests get `no_recordings`. Safe to set from any thread.
    public var recordings: (any RecordingsEndpoint)? {
        get { endpoints.withLock { $0.recordings } }
        set { endpoints.withLock { $0.recordings = newValue } }
    }

    /// The recordings a client may load, and those in progress (`GET /api/recordings`).
    public func recordingsListing() throws(HubError) -> StoreValue {
        try loadedRecordings().listing()
    }

    /// The file of one listed recording (`GET /api/recordings/<source>/<name>`).
    public func recordingFile(source: String, name: String) throws(HubError) -> URL {
        try loadedRecordings().file(source: source, name: name)
    }

    /// Starts a recording of this process (`POST /api/recordings`). Refused with `read_only` by a read-only hub:
    /// a recording writes a file and holds a descriptor, which a client of a read-only inspector may not cost
    /// the host (the host's own code starts recordings with `HubRecorder`, whatever the mode).
    public func startRecording(_ request: RecordingRequest) throws(HubError) -> StoreValue {
        try refuseRecordingIfReadOnly()
        return try loadedRecordings().start(request, hub: self)
    }

    /// Stops a recording of this process and returns its final status; refused with `read_only` like
    /// ``startRecording(_:)``.
    public func stopRecording(name: String) throws(HubError) -> StoreValue {
        try refuseRecordingIfReadOnly()
        return try loadedRecordings().stop(name: name)
    }

    /// The refusal of a recording's start or stop by a read-only inspector.
    public static let recordingReadOnlyError = HubError(
        code: .readOnly,
        message: "the inspector is read-only: a client may list and download recordings, not start or stop them; "
            + "restart it without --read-only to record")

    private func refuseRecordingIfReadOnly() throws(HubError) {
        guard !options.readOnly else { throw Self.recordingReadOnlyError }
    }

    private func loadedRecordings() throws(HubError) -> any RecordingsEndpoint {
        guard let endpoint = recordings else {
            throw HubError(
                code: .noRecordings,
                message: "this process keeps no recordings; an embedding service attaches them with "
                    + "InspectorHub.recordings (or Inspector.start(recordings:))")
        }
        return endpoint
    }
}
