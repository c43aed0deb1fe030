public import Foundation
public import KeyscopeInspector
public import KeyscopeProtocol

extension RecordingLibrary {
    /// What recordings started by clients (``RecordingLibrary/start(_:hub:)``: `POST /api/recordings`, the
    /// dashboard's Record button) may cost this process: how many run at once, how long and how large each gets,
    /// and how much the recordings folder may hold. docs/hardening.md lists them with what a client gets past each.
    ///
    /// ```swift
    /// let library = RecordingLibrary(folder: folder, limits: .init(maxActive: 2, maxFolderBytes: 256 << 20))
    /// ```
    /// When the folder is full, new recordings are **refused** (`no_space`); nothing is ever deleted for room: the
    /// files are the user's, and which of them still matters is theirs to say.
    public struct Limits: Sendable, Hashable {
        /// The most recordings in progress at once; one more is refused with `too_many` (HTTP 429).
        public var maxActive: Int
        /// The duration a recording gets when its request gives none, and the longest one may ask for
        /// (`bad_request` beyond).
        public var maxDuration: Duration
        /// The byte bound a recording gets when its request gives none, and the largest one may ask for
        /// (`bad_request` beyond).
        public var maxBytes: Int
        /// The most bytes the recordings folder may hold: its recordings' files plus the room that the recordings
        /// in progress may still take (their byte bounds). A recording whose bound does not fit is refused with
        /// `no_space` (HTTP 507).
        public var maxFolderBytes: Int

        public init(
            maxActive: Int = 4, maxDuration: Duration = .seconds(3600), maxBytes: Int = 64 << 20,
            maxFolderBytes: Int = 1 << 30
        ) {
            self.maxActive = max(1, maxActive)
            self.maxDuration = maxDuration
            self.maxBytes = max(1, maxBytes)
            self.maxFolderBytes = max(1, maxFolderBytes)
        }
    }

    /// The duration and byte bound of a recording asked for with `request`, within ``limits``.
    func bounds(of request: RecordingRequest) throws(HubError) -> (duration: Duration, maxBytes: Int) {
        if let asked = request.duration, asked > limits.maxDuration {
            throw .badRequest(
                "\"durationSeconds\" may be at most \(limits.maxDuration.components.seconds) (this server's "
                    + "limit); ask for less, or leave it out for that much")
        }
        if let asked = request.maxBytes, asked > limits.maxBytes {
            throw .badRequest(
                "\"maxBytes\" may be at most \(limits.maxBytes) (this server's limit); ask for less, or leave it out "
                    + "for that much")
        }
        return (request.duration ?? limits.maxDuration, request.maxBytes ?? limits.maxBytes)
    }

    /// Refuses one more recording of `maxBytes` when ``Limits/maxActive`` recordings are in progress or the folder
    /// has no room for it. Called under the recorders' lock, so that two requests never both take the last place.
    func checkRoom(for maxBytes: Int, among recorders: [HubRecorder]) throws(HubError) {
        let active = recorders.map { ($0.options.maxBytes ?? 0, $0.status) }.filter { $0.1.state == .recording }
        if active.count >= limits.maxActive {
            throw HubError(
                code: .tooMany,
                message: "\(active.count) recordings are in progress, the most this server runs at once "
                    + "(\(limits.maxActive)); stop one (POST /api/recordings/recordings/NAME/stop) or wait for one "
                    + "to end")
        }
        let files = Self.recordings(in: folder).reduce(0) { $0 + $1.attributes.bytes }
        let reserved = active.reduce(0) { sum, recording in sum + max(0, recording.0 - recording.1.bytes) }
        let free = limits.maxFolderBytes - files - reserved
        guard maxBytes > free else { return }
        throw HubError(
            code: .noSpace,
            message: "the recordings folder \(folder.path) holds \(files) bytes and the recordings in progress may "
                + "take \(reserved) more, of the \(limits.maxFolderBytes) it may hold: \(max(0, free)) are left, "
                + "fewer than this recording's bound of \(maxBytes); delete old recordings, or ask a smaller "
                + "\"maxBytes\"")
    }
}
