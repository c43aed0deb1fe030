/// Why talking to an inspector server failed.
///
/// ```swift
/// do {
///     let client = try await InspectorClient.connect(to: endpoint)
/// } catch let error as InspectorClientError where error.code == .refused {
///     print(error.httpStatus ?? 0, error)   // 401 the server refused the WebSocket upgrade with HTTP 401 …
/// }
/// ```
/// A reply with `"ok": false` is not an error of this kind: ``InspectorClient/send(request:)`` returns it as an
/// ``InspectorReply`` whose ``InspectorReply/error`` says what the server refused.
public struct InspectorClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New kinds may be added; switch with a `default`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case badEndpoint, connectionFailed, refused, closed, tooLarge, badMessage, badRequest
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The server address could not be understood.
        public static let badEndpoint = Code(.badEndpoint)
        /// No connection could be made (nothing listens there, the network failed, the handshake timed out, the
        /// server answered something that is not a WebSocket upgrade).
        public static let connectionFailed = Code(.connectionFailed)
        /// The server answered the upgrade with an HTTP error (``InspectorClientError/httpStatus``: 401 for a
        /// missing or wrong token, 403 for a refused Host or Origin).
        public static let refused = Code(.refused)
        /// The connection ended (``InspectorClientError/closeCode`` says how, when the server said).
        public static let closed = Code(.closed)
        /// The server sent a message larger than the client's limit; the client closed with 1009.
        public static let tooLarge = Code(.tooLarge)
        /// The server sent a message that is not a JSON object; the client closed with 1002.
        public static let badMessage = Code(.badMessage)
        /// A request could not be sent as it is (not an object, or not encodable).
        public static let badRequest = Code(.badRequest)

        public var description: String { base.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// What went wrong, in words a person can act on.
    public let message: String
    /// The HTTP status the server refused the upgrade with, for ``Code/refused``.
    public let httpStatus: Int?
    /// The WebSocket close code, for ``Code/closed`` when the server sent one.
    public let closeCode: Int?

    init(_ code: Code, _ message: String, httpStatus: Int? = nil, closeCode: Int? = nil) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
        self.closeCode = closeCode
    }

    public var description: String { message }
}

extension InspectorClientError {
    static func badEndpoint(_ message: String) -> InspectorClientError {
        InspectorClientError(.badEndpoint, message)
    }

    static func refused(_ endpoint: InspectorEndpoint, status: Int) -> InspectorClientError {
        let meaning: String
        switch status {
        case 401: meaning = " (Unauthorized): the token is missing or wrong"
        case 403: meaning = " (Forbidden): the server refused this client's Host or Origin, or the connection"
        case 404: meaning = " (Not Found): there is no WebSocket endpoint /ws there; is it a keyscope server?"
        case 400: meaning = " (Bad Request)"
        default: meaning = ""
        }
        return InspectorClientError(
            .refused, "\(endpoint) refused the WebSocket upgrade with HTTP \(status)\(meaning)", httpStatus: status)
    }

    static func connectionFailed(_ endpoint: InspectorEndpoint, _ reason: String) -> InspectorClientError {
        InspectorClientError(.connectionFailed, "could not connect to \(endpoint): \(reason)")
    }

    static func closed(code: Int?, reason: String) -> InspectorClientError {
        let how = code.map { "with code \($0)" + (reason.isEmpty ? "" : " (\(reason))") } ?? "without a close code"
        return InspectorClientError(.closed, "the server closed the connection \(how)", closeCode: code)
    }

    static let connectionLost = InspectorClientError(
        .closed, "the connection to the server was lost (it ended without a close frame)")

    static let closedByClient = InspectorClientError(
        .closed, "the connection was closed by this client", closeCode: 1000)

    static func tooLarge(limit: Int) -> InspectorClientError {
        InspectorClientError(
            .tooLarge,
            "the server sent a message larger than this client's limit of \(limit) bytes; "
                + "raise InspectorClient.Configuration.maxMessageBytes")
    }

    static func badMessage(_ reason: String) -> InspectorClientError {
        InspectorClientError(.badMessage, "the server sent a message that is not a JSON object: \(reason)")
    }

    static func badRequest(_ reason: String) -> InspectorClientError {
        InspectorClientError(.badRequest, "cannot send the request: \(reason)")
    }
}
