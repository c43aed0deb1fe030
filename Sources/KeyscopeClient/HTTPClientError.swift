/// Why an HTTP request to an inspector server got no answer (``HTTPClient``). An answer with an error status is not
/// one of these: it is an ``HTTPResponse`` whose ``HTTPResponse/status`` says so.
///
/// ```swift
/// do {
///     _ = try HTTPClient(endpoint: endpoint).send(method: "GET", target: "/tune")
/// } catch where error.code == .connectionFailed {
///     print(error)   // could not connect to 127.0.0.1:8081: connection refused (is a keyscope server running there?)
/// }
/// ```
public struct HTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New kinds may be added; switch with a `default`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case badRequest, connectionFailed, timedOut, badResponse
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The request cannot be sent as given (a target that is not a path, a header with a line break).
        public static let badRequest = Code(.badRequest)
        /// No connection could be made (nothing listens there, the name does not resolve), or it broke before the
        /// server answered.
        public static let connectionFailed = Code(.connectionFailed)
        /// The server did not answer within the client's timeout.
        public static let timedOut = Code(.timedOut)
        /// The server answered something that is not an HTTP/1.x response (or one over the client's size limit).
        public static let badResponse = Code(.badResponse)

        public var description: String { base.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// What went wrong, in words a person can act on.
    public let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
