import Foundation
public import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol

extension RecordingWriter {
    /// How a writer bounds, masks and creates its file.
    ///
    /// ```swift
    /// var options = RecordingWriter.Options(maxBytes: 10 << 20)
    /// options.mute = try MuteRules(patterns: ["user.card"])
    /// ```
    public struct Options: Sendable, Hashable {
        /// The most bytes the file may hold, header included: the recording ends before a line would take it
        /// over (``RecordingWriter/Outcome/full``). `nil` for no bound.
        public var maxBytes: Int?
        /// Values and stores left out (docs/recording.md "Muting").
        public var mute: MuteRules
        /// `false` (the default) creates the file exclusively and fails when it exists, so that no recording is
        /// ever overwritten by accident; `true` truncates an existing regular file (never through a symlink).
        public var overwrite: Bool
        /// The new file's mode: `0o600` by default, since a recording holds the application's data.
        public var permissions: UInt16
        /// The header's `recorder` member.
        public var recorder: StoreValue

        public init(
            maxBytes: Int? = nil, mute: MuteRules = .none, overwrite: Bool = false, permissions: UInt16 = 0o600,
            recorder: StoreValue = RecordingWriter.defaultRecorder
        ) {
            self.maxBytes = maxBytes
            self.mute = mute
            self.overwrite = overwrite
            self.permissions = permissions
            self.recorder = recorder
        }
    }

    /// `{"name": "keyscope", "version": "<package version>"}`.
    public static let defaultRecorder: StoreValue = .object([
        "name": "keyscope", "version": .string(InspectorProtocol.packageVersion),
    ])

    /// What became of an event given to ``RecordingWriter/append(_:time:liveSeq:encoded:)``.
    public enum Outcome: Sendable, Hashable {
        /// Its line is in the file.
        case written
        /// Muting left nothing of it (an event of a muted store, a change only below muted paths): no line, and
        /// the recording's `seq` stays dense.
        case muted
        /// Its line would take the file over ``Options/maxBytes``: not written, and the writer takes no more
        /// events (the recording ends with `max-bytes`).
        case full
    }

    /// What the file holds so far.
    public struct Counts: Sendable, Hashable {
        /// Event lines written (the header not counted): the last `seq` in the file.
        public var events: Int
        /// Bytes written, header included: the file's size.
        public var bytes: Int
        /// The live seq of the last event line written (the header's `liveSeq` before any).
        public var lastLiveSeq: Int?
    }
}
