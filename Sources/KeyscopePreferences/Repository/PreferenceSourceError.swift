import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol

/// Why a preference source (a UserDefaults suite or a secret service) or the repository refused a request. Nothing
/// changed when one is thrown.
///
/// A struct over codes rather than an enum so that codes can be added later; compare ``code`` with `==`.
/// ```swift
/// do { try UserDefaultsScanner.checkSuiteName("../etc") }
/// catch let error where error.code == .badName { print(error.message) }
/// // suite name "../etc" contains "..": a suite is one file in the preferences folder …
/// ```
public struct PreferenceSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of error.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as text: `bad_name`, `type_mismatch`…
        public let rawValue: String
        /// A code from its text (for codes added later; the static members name the known ones).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code as text.
        public var description: String { rawValue }

        /// A suite or service name that cannot be used: empty, with `/`, `..` or control characters.
        public static let badName = Code(rawValue: "bad_name")
        /// A value the suite or the secret store cannot hold, or not of the preference's type (a `date` that is not
        /// ISO 8601, `data` that is not base64).
        public static let typeMismatch = Code(rawValue: "type_mismatch")
        /// The suite or the secret store failed or refused (could not save, not reachable).
        public static let backend = Code(rawValue: "backend")
        /// The write is not allowed there: a hidden system key, a generic write to a redacted secret mirror.
        public static let refused = Code(rawValue: "refused")
        /// Editing is turned off in the ``PreferencesConfiguration``.
        public static let readOnly = Code(rawValue: "read_only")
        /// The container is not among the scanned ones, or the key is not there.
        public static let unknownKey = Code(rawValue: "unknown_key")
        /// A value nested deeper than a suite takes (``PlistConversion/maxSuiteDepth``).
        public static let tooLarge = Code(rawValue: "too_large")
    }

    /// The kind of error.
    public let code: Code
    /// What was wrong and what to do about it; never holds a secret's value.
    public let message: String

    /// An error of kind `code`; `message` should say what was wrong and what is allowed.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`, for logs.
    public var description: String { "\(code): \(message)" }
}

extension PreferenceSourceError {
    static func typeMismatch(_ message: String) -> Self { Self(code: .typeMismatch, message: message) }
    static func backend(_ message: String) -> Self { Self(code: .backend, message: message) }
    static func unknownKey(_ message: String) -> Self { Self(code: .unknownKey, message: message) }

    static var editingOff: Self {
        Self(
            code: .readOnly,
            message: "editing preferences is turned off (PreferencesConfiguration.editingEnabled); they are read-only")
    }

    /// The wire form (docs/protocol.md error codes): a name or a backend failure is `bad_request`.
    var hubError: HubError {
        switch code {
        case .typeMismatch: HubError(code: .typeMismatch, message: message)
        case .readOnly: HubError(code: .readOnly, message: message)
        case .unknownKey: HubError(code: .unknownKey, message: message)
        case .tooLarge: HubError(code: .tooLarge, message: message)
        default: HubError(code: .badRequest, message: message)
        }
    }

    /// The form a mirror store's gate refuses a change with.
    var storeError: StoreError {
        switch code {
        case .typeMismatch: StoreError(code: .typeMismatch, message: message)
        case .readOnly: StoreError(code: .readOnly, message: message)
        case .tooLarge: StoreError(code: .tooLarge, message: message)
        default: StoreError(code: .badRequest, message: message)
        }
    }
}
