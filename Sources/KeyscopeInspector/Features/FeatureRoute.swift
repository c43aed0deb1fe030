public import Foundation
public import KeyscopeCore
public import KeyscopeProtocol

/// One HTTP route of an ``InspectorFeature``.
///
/// ```swift
/// FeatureRoute(.get, "/tune") { _ in .json(.object(values)) }
/// FeatureRoute(.put, "/tune/*", writes: true, pathForm: .asSent(advice: "send it in POST /tune")) { request in
///     let segments = request.rest          // still percent-encoded, as the client sent them
///     …
/// }
/// ```
/// The path is segments: literal ones, `:name` ones that take any one segment, and optionally a last `*` that takes
/// every remaining one (one or more); ``Request/rest`` holds what the placeholders took, in order. When several
/// routes match a path, those with the most literal segments win: `POST /api/preferences/refresh` shadows
/// `PUT /api/preferences/*` for that path, which then answers 405 to a `PUT`. Every route needs the token;
/// a route that ``writes`` is refused on a read-only server (with ``readOnlyRefusal``, else the hub's) before its
/// body is read.
public struct FeatureRoute: Sendable {
    /// The HTTP methods a feature may serve (`HEAD` is answered for every `GET`).
    public enum Method: String, Sendable, Hashable, CaseIterable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case delete = "DELETE"
    }

    /// What the route takes as a body.
    public enum Body: Sendable, Hashable {
        /// No body is read.
        case none
        /// A JSON body (`Content-Type: application/json`, within the server's size limit); an empty one reaches the
        /// handler as `nil`, invalid JSON is refused with `bad_json` before it.
        case json
        /// Like ``json``, but a request that announces no body is answered at once (a `POST` that only triggers).
        case optionalJSON
        /// Like ``json`` (the same media type and size limit), but handed over as sent, unparsed, in
        /// ``Request/bytes``: for a route that passes the body on (a fleet dashboard carries a request to an
        /// instance, whose own reader answers for what is in it).
        case bytes
    }

    /// Which form of the path ``Request/rest`` holds.
    public enum PathForm: Sendable, Hashable {
        /// The path as libwebsockets decoded it (percent-decoded, `//` and dot segments resolved).
        case decoded
        /// The segments exactly as the client sent them, still percent-encoded, read from the request line itself:
        /// for names that may hold `/` (as `%2F`) or `//`. A segment that cannot be decoded (a bad escape, a control
        /// character, not UTF-8) is refused with `bad_request` as soon as the line is read; `advice` ends that
        /// message (where such a name can be sent instead).
        case asSent(advice: String)
    }

    /// What a handler gets.
    public struct Request: Sendable {
        /// The method as routed (`GET` for a `HEAD`).
        public var method: Method
        /// The path as libwebsockets decoded it.
        public var path: String
        /// The segments the route's `:name` placeholders and `*` took, in order, in the route's ``PathForm``.
        public var rest: [String]
        /// The JSON body; `nil` when the route takes none or it was empty.
        public var body: StoreValue?
        /// The body as sent, for a route that takes ``Body/bytes``.
        public var bytes: [UInt8]
        /// The query's parameters, percent-decoded (the first of each name).
        public var query: [String: String]

        public init(
            method: Method, path: String, rest: [String] = [], body: StoreValue? = nil, query: [String: String] = [:],
            bytes: [UInt8] = []
        ) {
            self.method = method
            self.path = path
            self.rest = rest
            self.body = body
            self.query = query
            self.bytes = bytes
        }
    }

    /// What a handler answers.
    public enum Response: Sendable {
        /// A JSON body (written with sorted keys) and its status.
        case json(StoreValue, status: Int = 200)
        /// A JSON body already encoded, and its status.
        case encoded([UInt8], status: Int = 200)
        /// A file, streamed from disk, with its media type and extra headers (name, value).
        case file(URL, contentType: String, headers: [String: String] = [:])
        /// Answered later, from any thread: `start` is called once, on the server's request worker, with the
        /// function to call with the response (once). The connection waits for it; no thread does (a fleet dashboard
        /// waits up to 5 s for an instance this way).
        case later(@Sendable (_ respond: @escaping @Sendable (Response) -> Void) -> Void)
    }

    public let method: Method
    /// The path's segments after the leading `/` (`["tune", "*"]`).
    public let segments: [String]
    public let body: Body
    public let writes: Bool
    public let pathForm: PathForm
    /// The refusal of this route on a read-only server; `nil` for the hub's own.
    public let readOnlyRefusal: HubError?
    /// Whether the route takes the place of the server's own route with the same method and path (a fleet
    /// dashboard's `GET /api/snapshot` serves an instance's state, not the empty hub's).
    public let replacesBuiltIn: Bool
    /// Whether a fleet dashboard may carry the route to this instance through Redis (docs/fleet.md): `false` for a
    /// route whose answer may hold what must not reach Redis (revealed secrets).
    public let crossesFleet: Bool
    public let handle: @Sendable (Request) throws(HubError) -> Response

    /// A route at `path` (`/tune`, `/tune/*`); `writes` routes are refused on a read-only server.
    public init(
        _ method: Method, _ path: String, body: Body = .none, writes: Bool = false, pathForm: PathForm = .decoded,
        readOnlyRefusal: HubError? = nil, replacesBuiltIn: Bool = false, crossesFleet: Bool = true,
        handle: @escaping @Sendable (Request) throws(HubError) -> Response
    ) {
        precondition(path.hasPrefix("/"), "a route's path starts with /")
        self.method = method
        self.segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        self.body = body
        self.writes = writes
        self.pathForm = pathForm
        self.readOnlyRefusal = readOnlyRefusal
        self.replacesBuiltIn = replacesBuiltIn
        self.crossesFleet = crossesFleet
        self.handle = handle
    }

    /// The path as declared (`/tune/*`).
    public var path: String { "/" + segments.joined(separator: "/") }
}
