/// Why a store operation was refused. Nothing is ever changed when one of these is thrown or reported.
///
/// A struct over a private enum so that cases can be added without breaking clients; switch on ``code``.
/// ```swift
/// do { try store.apply(.set("items[9]", 1)) }
/// catch let error where error.code == .outOfRange { … }
/// ```
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable name for the kind of error (the inspector's wire error codes use these).
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The path does not parse.
        public static let badPath = Code(rawValue: "bad_path")
        /// A name into a non-object, an index into a non-array, a root that is not an object.
        public static let typeMismatch = Code(rawValue: "type_mismatch")
        /// An index past the end of an array.
        public static let outOfRange = Code(rawValue: "out_of_range")
        /// The operation itself is not allowed here (removing the root, an insert without an index).
        public static let badRequest = Code(rawValue: "bad_request")
        /// A patch's recorded `old` value no longer matches the state.
        public static let conflict = Code(rawValue: "conflict")
        /// A write from inside a subscriber or transaction that would deadlock the store.
        public static let reentrant = Code(rawValue: "reentrant")
        /// The store was removed from its factory or registry.
        public static let storeRemoved = Code(rawValue: "store_removed")
        /// Reading or writing persisted data failed.
        public static let persistence = Code(rawValue: "persistence")
        /// The store's gate does not allow writes now (a preference mirror with editing turned off).
        public static let readOnly = Code(rawValue: "read_only")
        /// The write would build a value past a store's limits (``StoreLimits/maxDepth``).
        public static let tooLarge = Code(rawValue: "too_large")
    }

    /// The kind of error.
    public let code: Code
    /// What was wrong and what to do about it.
    public let message: String
    /// The path the failing operation addressed, when there is one.
    public let keyPath: String?

    public init(code: Code, message: String, keyPath: String? = nil) {
        self.code = code
        self.message = message
        self.keyPath = keyPath
    }

    public var description: String {
        if let keyPath { return "\(code) at \"\(keyPath)\": \(message)" }
        return "\(code): \(message)"
    }

    static func badPath(_ error: KeyPathParseError) -> StoreError {
        StoreError(code: .badPath, message: error.description, keyPath: error.path)
    }

    static func typeMismatch(_ message: String, at path: StoreKeyPath) -> StoreError {
        StoreError(code: .typeMismatch, message: message, keyPath: path.description)
    }

    static func outOfRange(_ message: String, at path: StoreKeyPath) -> StoreError {
        StoreError(code: .outOfRange, message: message, keyPath: path.description)
    }

    static func badRequest(_ message: String, at path: StoreKeyPath? = nil) -> StoreError {
        StoreError(code: .badRequest, message: message, keyPath: path?.description)
    }

    static func conflict(_ message: String, at path: StoreKeyPath) -> StoreError {
        StoreError(code: .conflict, message: message, keyPath: path.description)
    }
}
