/// Why a recording could not be read, replayed or written: a kind, the 1-based line it is about (the header is
/// line 1; `nil` for errors about the file as a whole) and what was wrong, for people.
///
/// ```swift
/// do { _ = try RecordingReader.replay(url).summary }
/// catch let error as RecordingError where error.code == .patchDoesNotApply { print(error) }
/// // line 7: patch 1 does not apply: "cart.total" is 90, the patch expected 95
/// ```
/// A struct over codes rather than an enum so that kinds can be added later; compare ``code`` with `==`.
public struct RecordingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The file cannot be opened, read or written (the message carries the system's reason).
        public static let io = Code(rawValue: "io")
        /// Line 1 is missing, incomplete or not a valid header (wrong format, unknown version, bad stores).
        public static let badHeader = Code(rawValue: "bad_header")
        /// An event line is not valid: not JSON, blank, a wrong type, an unknown event kind.
        public static let badLine = Code(rawValue: "bad_line")
        /// An event's `seq` does not rise by exactly 1 from the line before.
        public static let badSeq = Code(rawValue: "bad_seq")
        /// A change's patch is invalid on the state, or its `old` differs from the state's value (presence
        /// included); or a store event does not fit (a change to an unknown store, a store registered twice).
        public static let patchDoesNotApply = Code(rawValue: "patch_does_not_apply")
        /// A line is longer than the reader's limit (the reader keeps memory bounded).
        public static let lineTooLong = Code(rawValue: "line_too_long")
        /// A `--at` seq or other request outside what the recording holds.
        public static let outOfRange = Code(rawValue: "out_of_range")
    }

    /// The kind of problem.
    public let code: Code
    /// The 1-based line number the problem is on (the header is line 1), or `nil` when it is about the whole file.
    public let line: Int?
    /// What was wrong, for people.
    public let message: String

    public init(_ code: Code, line: Int?, _ message: String) {
        self.code = code
        self.line = line
        self.message = message
    }

    /// `line N: message`, or the message alone when no line is concerned.
    public var description: String {
        guard let line else { return message }
        return "line \(line): \(message)"
    }
}
