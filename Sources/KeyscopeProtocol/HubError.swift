package import KeyscopeCore

/// Why the hub refused a client's request, with a docs/protocol.md error code. Nothing changed when one is thrown.
///
/// A struct over codes rather than an enum so that codes can be added later; compare ``code`` with `==`.
/// ```swift
/// do { _ = try hub.write(store: "app/memory", op: "set", path: "a..b", value: 1) }
/// catch let error where error.code == .badPath { reply(error.code.rawValue, error.message) }
/// ```
public struct HubError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A wire error code (docs/protocol.md "Error codes").
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The request is malformed or not allowed (unknown op, missing value, a seq no longer in the log…).
        public static let badRequest = Code(rawValue: "bad_request")
        /// No registered store has that id (or the id does not parse).
        public static let unknownStore = Code(rawValue: "unknown_store")
        /// The path does not parse; the message names the column.
        public static let badPath = Code(rawValue: "bad_path")
        /// A name into a non-object, an index into a non-array, a value of the wrong shape.
        public static let typeMismatch = Code(rawValue: "type_mismatch")
        /// An index past the end of an array.
        public static let outOfRange = Code(rawValue: "out_of_range")
        /// A revert whose paths no longer hold the values the change left there.
        public static let conflict = Code(rawValue: "conflict")
        /// The hub was made with ``HubOptions/readOnly``.
        public static let readOnly = Code(rawValue: "read_only")
        /// The message is not JSON, or not a JSON object.
        public static let badJSON = Code(rawValue: "bad_json")
        /// The request's `type` is not one the server knows.
        public static let unknownType = Code(rawValue: "unknown_type")
        /// A tunable write names a key that the tunables do not have (HTTP 404).
        public static let unknownKey = Code(rawValue: "unknown_key")
        /// No tunables are loaded in this process (HTTP 404).
        public static let noTunables = Code(rawValue: "no_tunables")
        /// A body or message over the server's size limit (HTTP 413).
        public static let tooLarge = Code(rawValue: "too_large")
        /// No preference scanning is attached to this inspector (HTTP 404).
        public static let noPreferences = Code(rawValue: "no_preferences")
        /// No watched statuses or watch rules are attached to this inspector (HTTP 404).
        public static let noWatches = Code(rawValue: "no_watches")
        /// No recording is attached to this inspector (HTTP 404).
        public static let noRecordings = Code(rawValue: "no_recordings")
        /// The named thing (a recording, a file) does not exist (HTTP 404).
        public static let notFound = Code(rawValue: "not_found")
        /// As many of something run as the server allows (recordings in progress) (HTTP 429).
        public static let tooMany = Code(rawValue: "too_many")
        /// A folder the server writes to holds what it may (the recordings folder) (HTTP 507).
        public static let noSpace = Code(rawValue: "no_space")
        /// A fleet dashboard knows no instance with that id (HTTP 404).
        public static let unknownInstance = Code(rawValue: "unknown_instance")
        /// Whoever had to answer did not in time: an instance through its fleet, or a server over its limits (HTTP
        /// 503).
        public static let unavailable = Code(rawValue: "unavailable")
        /// The path is served, but not with that method (HTTP 405): a route a fleet dashboard carried to an
        /// instance (the server's own answer also names the methods in `Allow`).
        public static let methodNotAllowed = Code(rawValue: "method_not_allowed")

        /// The HTTP status that carries this code: 403 `read_only`; 404 for what does not exist (`unknown_store`,
        /// `unknown_key`, `not_found`, and the `no_…` codes of features this process does not have); 405
        /// `method_not_allowed`; 409
        /// `conflict`; 413 `too_large`; 429 `too_many`; 503 `unavailable`; 507 `no_space`; 400 for every other code.
        public var httpStatus: Int {
            switch self {
            case .readOnly: 403
            case .unknownStore, .unknownKey, .notFound, .unknownInstance: 404
            case .methodNotAllowed: 405
            case .conflict: 409
            case .tooLarge: 413
            case .tooMany: 429
            case .unavailable: 503
            case .noSpace: 507
            default: rawValue.hasPrefix("no_") ? 404 : 400
            }
        }

    }

    /// The kind of error, as sent on the wire.
    public let code: Code
    /// What was wrong and what to do about it, for people.
    public let message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    /// A `bad_request` error with that message.
    public static func badRequest(_ message: String) -> HubError { HubError(code: .badRequest, message: message) }

    /// The store's refusal as a wire error: the store's codes that the protocol shares are kept as they are.
    package init(_ error: StoreError, context: String = "") {
        let code: Code
        switch error.code {
        case .badPath: code = .badPath
        case .typeMismatch: code = .typeMismatch
        case .outOfRange: code = .outOfRange
        case .conflict: code = .conflict
        case .storeRemoved: code = .unknownStore
        case .readOnly: code = .readOnly
        case .tooLarge: code = .tooLarge
        default: code = .badRequest
        }
        self.init(code: code, message: context + error.description)
    }
}
