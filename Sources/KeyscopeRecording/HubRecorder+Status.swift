public import Foundation
public import KeyscopeCodec
public import KeyscopeCore

extension HubRecorder {
    /// How a recording is bounded and masked, and where it says it comes from.
    ///
    /// ```swift
    /// let options = HubRecorder.Options(duration: .seconds(60), maxBytes: 10 << 20, mute: try MuteRules(patterns: ["user.card"]))
    /// ```
    public struct Options: Sendable, Hashable {
        /// Ends the recording this long after it began (``EndReason/duration``); `nil` records until stopped.
        public var duration: Duration?
        /// Ends the recording before a line would take the file over this many bytes, header included
        /// (``EndReason/maxBytes``); `nil` for no bound.
        public var maxBytes: Int?
        /// Values and stores left out (docs/recording.md "Muting").
        public var mute: MuteRules
        /// The header's `source`: this process by default.
        public var source: RecordingHeader.Source?
        /// Truncate an existing file instead of refusing it (see ``RecordingWriter/Options/overwrite``).
        public var overwrite: Bool
        /// How often the recorder reads the hub's log. The hub never waits for it; it only has to read before the
        /// log's bounds drop what it has not read yet (``EndReason/fellBehind``).
        public var pollInterval: Duration

        public init(
            duration: Duration? = nil, maxBytes: Int? = nil, mute: MuteRules = .none,
            source: RecordingHeader.Source? = .thisProcess, overwrite: Bool = false,
            pollInterval: Duration = .milliseconds(20)
        ) {
            self.duration = duration
            self.maxBytes = maxBytes
            self.mute = mute
            self.source = source
            self.overwrite = overwrite
            self.pollInterval = pollInterval
        }
    }

    /// Why a recording ended, as the status's `endReason` says it.
    public struct EndReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// ``HubRecorder/stop()`` was called (after everything up to then was written).
        public static let stopped = EndReason(rawValue: "stopped")
        /// ``Options/duration`` passed.
        public static let duration = EndReason(rawValue: "duration")
        /// The next line would have taken the file over ``Options/maxBytes``.
        public static let maxBytes = EndReason(rawValue: "max-bytes")
        /// The hub's log dropped entries the recorder had not read yet; the file holds every event before them.
        public static let fellBehind = EndReason(rawValue: "fell-behind")
        /// Writing failed (the message says why); the file holds every complete line before.
        public static let failed = EndReason(rawValue: "failed")
    }

    /// Whether a recording is still being written.
    public enum State: String, Sendable, Hashable {
        case recording
        case ended
    }

    /// Where a recording stands: what `GET /api/recordings` lists as `active` (docs/recording.md "HTTP").
    public struct Status: Sendable, Hashable {
        /// The file's name.
        public var name: String
        public var url: URL
        public var state: State
        /// Event lines written (the last `seq`).
        public var events: Int
        /// The file's size, header included.
        public var bytes: Int
        public var startedAt: LogTime
        public var endedAt: LogTime?
        public var endReason: EndReason?
        /// Why it ended, for people, when there is more to say than the reason.
        public var message: String?
        /// The live seq of the state in the header.
        public var headerLiveSeq: Int
        /// The live seq of the last event written or muted away (``headerLiveSeq`` before any).
        public var lastLiveSeq: Int

        /// `{"id", "name", "state", "events", "bytes", "startedAt", "endedAt", "endReason", "message"}`, with `id`
        /// given by the caller (`recordings/<name>` for a ``RecordingLibrary``).
        public func jsonObject(id: String) -> StoreValue {
            .object([
                "id": .string(id), "name": .string(name), "state": .string(state.rawValue),
                "events": .integer(Int64(events)), "bytes": .integer(Int64(bytes)),
                "startedAt": .string(startedAt.rfc3339), "endedAt": endedAt.map { .string($0.rfc3339) } ?? .null,
                "endReason": endReason.map { .string($0.rawValue) } ?? .null,
                "message": message.map(StoreValue.string) ?? .null,
            ])
        }
    }
}
