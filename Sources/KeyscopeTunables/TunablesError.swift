import KeyscopeInspector
import KeyscopeProtocol

/// Why a tunables operation failed. Nothing changed (in memory or on disk) when one is thrown, except for
/// ``Code/io`` from ``Tunables/flush()``, which reports a save that did not happen.
///
/// A struct over codes rather than an enum so that codes can be added later; compare ``code`` with `==`.
/// ```swift
/// do { try tunables.set("toolbar_height", 500) }
/// catch let error where error.code == .outOfRange { print(error.message) }
/// // toolbar_height: 500 is above the maximum 120 (allowed: 24 to 120 in steps of 4)
/// ```
public struct TunablesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of error.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as text: `unknown_key`, `bad_file`…
        public let rawValue: String
        /// A code from its text (for codes added later; the static members name the known ones).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code as text.
        public var description: String { rawValue }

        /// The key is not a tunable and cannot become one: the schema is closed (`"additionalKeys": false`) and
        /// neither it nor the defaults list the key; or a reset or removal names a key the tunables do not have.
        public static let unknownKey = Code(rawValue: "unknown_key")
        /// The key cannot be a tunable's key in any file: empty, longer than 256 bytes, or holding `/` or a control
        /// character (``TunePath/keyProblem(_:)``). `bad_request` on the wire.
        public static let badKey = Code(rawValue: "bad_key")
        /// The value is not of the type the schema gives the key.
        public static let typeMismatch = Code(rawValue: "type_mismatch")
        /// The value is outside the schema's `min`/`max`, off its `step`, or not one of its `options`.
        public static let outOfRange = Code(rawValue: "out_of_range")
        /// A whole new set of values leaves out a key the schema requires.
        public static let missingKey = Code(rawValue: "missing_key")
        /// A file that must exist does not (the bundled defaults, a schema given by URL).
        public static let missingFile = Code(rawValue: "missing_file")
        /// A values file (the defaults or the writable copy) does not parse, is not a flat JSON object, or breaks
        /// the schema. The file is left as it is.
        public static let badFile = Code(rawValue: "bad_file")
        /// The schema file does not parse or does not describe tunables the way docs/tunables.md says.
        public static let badSchema = Code(rawValue: "bad_schema")
        /// Reading or writing a file failed (permissions, a full disk…).
        public static let io = Code(rawValue: "io")
        /// The store refused the write (a write from inside one of its own observers, a store id already
        /// registered), or the tunables were stopped.
        public static let store = Code(rawValue: "store")
    }

    /// The kind of error.
    public let code: Code
    /// What was wrong and what to do about it, naming the key or the file.
    public let message: String
    /// The tunable the error is about, when there is one.
    public let key: String?

    /// An error of kind `code`; `message` should say what was wrong and what is allowed.
    public init(code: Code, message: String, key: String? = nil) {
        self.code = code
        self.message = message
        self.key = key
    }

    /// `code: message`, for logs.
    public var description: String { "\(code): \(message)" }
}

extension TunablesError {
    /// A key the tunables do not have (a reset or removal of it).
    static func unknownKey(_ key: String) -> TunablesError {
        TunablesError(code: .unknownKey, message: "\(key): no such tunable", key: key)
    }

    /// A new key that a closed schema refuses.
    static func closedSchema(_ key: String) -> TunablesError {
        TunablesError(
            code: .unknownKey,
            message: "\(key): no such tunable; add it to the defaults file (or the schema) first (the schema is "
                + "closed by \"additionalKeys\": false, which refuses keys neither it nor the defaults list)",
            key: key)
    }

    /// A key no file could hold.
    static func badKey(_ key: String, _ problem: String) -> TunablesError {
        TunablesError(
            code: .badKey,
            message: "\(problem) (\(TunePath.keyRule))",
            key: key)
    }

    static func typeMismatch(_ key: String, _ message: String) -> TunablesError {
        TunablesError(code: .typeMismatch, message: "\(key): \(message)", key: key)
    }

    static func outOfRange(_ key: String, _ message: String) -> TunablesError {
        TunablesError(code: .outOfRange, message: "\(key): \(message)", key: key)
    }

    static func badSchema(_ path: String, _ message: String, key: String? = nil) -> TunablesError {
        let prefix = key.map { "\(path), key \"\($0)\": " } ?? "\(path): "
        return TunablesError(code: .badSchema, message: prefix + message, key: key)
    }
}
