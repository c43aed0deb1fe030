/// Why the jansson codec could not decode or encode something.
///
/// ```swift
/// do {
///     _ = try JanssonCodec.decode(Array(#"{"a": 1, "a": 2}"#.utf8))
/// } catch {
///     error.code == .syntax        // true: jansson refused the duplicate key
///     print(error)                 // invalid JSON at line 1, column 12, byte 12: duplicate object key near '"a"'
/// }
/// ```
public struct JanssonCodecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New kinds may be added; switch with a `default`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case syntax, tooDeep, invalidValue, unencodable, invalidLogLine, invalidTime
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// jansson's parser refused the text (bad syntax, bad UTF-8, a duplicate key, an integer outside Int64,
        /// a number literal that overflows a double, a lone surrogate escape…).
        public static let syntax = Code(.syntax)
        /// The text or the value nests deeper than the limit.
        public static let tooDeep = Code(.tooDeep)
        /// Valid JSON that is not a valid StoreValue (docs/store.md): a bad tagged payload, or keys that are duplicates
        /// once `$`-unescaped.
        public static let invalidValue = Code(.invalidValue)
        /// jansson could not build a value (a constructor returned `NULL`, or an insertion failed).
        public static let unencodable = Code(.unencodable)
        /// A valid JSON value that is not a docs/recording.md event line (a missing key, a wrong type…).
        public static let invalidLogLine = Code(.invalidLogLine)
        /// A time that is not RFC 3339 UTC with microseconds, or outside years 0000–9999.
        public static let invalidTime = Code(.invalidTime)

        public var description: String { base.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// What was wrong, in words a person can act on.
    public let message: String
    /// Where jansson stopped, for ``Code/syntax`` errors (and ``Code/tooDeep`` ones found by the pre-scan, which
    /// give only ``position``): 1-based line and column, 0-based byte offset just past what was read.
    public let line: Int?
    public let column: Int?
    public let position: Int?

    init(_ code: Code, _ message: String, line: Int? = nil, column: Int? = nil, position: Int? = nil) {
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.position = position
    }

    public var description: String {
        switch (code, line, column, position) {
        case (.syntax, let line?, let column?, let position?):
            "invalid JSON at line \(line), column \(column), byte \(position): \(message)"
        case (_, _, _, let position?):
            "invalid JSON at byte \(position): \(message)"
        case (.unencodable, _, _, _):
            "cannot encode: \(message)"
        default:
            message
        }
    }
}

extension JanssonCodecError {
    static func tooDeep(limit: Int, at position: Int) -> JanssonCodecError {
        JanssonCodecError(
            .tooDeep,
            "the text nests arrays and objects deeper than the limit of \(limit) levels; pass a larger maxDepth "
                + "(at most \(JanssonCodec.depthCeiling)) if such input is expected",
            position: position)
    }

    static func tooDeepToEncode(limit: Int) -> JanssonCodecError {
        JanssonCodecError(
            .tooDeep,
            "cannot encode: the value nests deeper than the limit of \(limit) levels (arrays, objects and the tagged "
                + "objects of colors, urls and non-finite numbers each count as one); a reader would refuse the output")
    }

    static func constructorFailed(_ what: String) -> JanssonCodecError {
        JanssonCodecError(.unencodable, "jansson could not build \(what) (out of memory, or text jansson refuses)")
    }

    static func invalidValue(_ message: String) -> JanssonCodecError {
        JanssonCodecError(.invalidValue, message)
    }

    static func invalidLogLine(_ message: String) -> JanssonCodecError {
        JanssonCodecError(.invalidLogLine, "not a log event line: \(message)")
    }

    /// A header line (line 1 of a recording) that breaks docs/recording.md: the same code as an event line's, the
    /// message without the event line's prefix.
    static func invalidHeader(_ message: String) -> JanssonCodecError {
        JanssonCodecError(.invalidLogLine, message)
    }
}
