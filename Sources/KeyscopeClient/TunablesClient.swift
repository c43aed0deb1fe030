public import KeyscopeCore
import KeyscopeProtocol

/// The tunables of a running inspector server, over its HTTP endpoints (docs/protocol.md): `GET /tune`,
/// `PUT /tune/:key/:value`, `DELETE /tune/:key` and `POST /tune`.
///
/// ```swift
/// let tunables = TunablesClient(endpoint: InspectorEndpoint(record: try ServerRecord.find(port: nil)))
/// let all = try tunables.values()                              // ["toolbar_height": 48, …]
/// let set = try tunables.set(key: "toolbar_height", text: "64") // set.value == 64, set.seq == 41
/// try tunables.replace(with: all)                              // every tunable, in one change
/// try tunables.remove(key: "banner_delay")                      // one key out
/// ```
/// Calls block (see ``HTTPClient``). A refusal by the server throws a ``TunablesClientError`` with its code.
public struct TunablesClient: Sendable {
    /// The HTTP client it sends with (endpoint, token, timeout).
    public var http: HTTPClient

    /// A client of the server at `endpoint`; each call may take up to `timeout`.
    public init(endpoint: InspectorEndpoint, timeout: Duration = .seconds(10)) {
        http = HTTPClient(endpoint: endpoint, timeout: timeout)
    }

    /// What a write did: the seq of its change (`nil` when nothing changed) and, for ``set(key:text:)``, the value
    /// the server made of the text; for ``replace(with:)``, how many tunables the new set has.
    public struct Result: Sendable, Hashable {
        /// The seq of the change in the server's log; `nil` when nothing changed.
        public let seq: Int?
        /// What the server made of the text (``set(key:text:)`` only).
        public let value: StoreValue?
        /// How many tunables the new set has (``replace(with:)`` only).
        public let count: Int?
    }

    /// Every tunable and its value (`GET /tune`).
    public func values() throws(TunablesClientError) -> [String: StoreValue] {
        let reply = try call("GET", TunePath.root, body: nil)
        guard case .object(let values) = reply else {
            throw TunablesClientError(reply: "GET /tune answered \(reply.typeName), not an object of tunables")
        }
        return values
    }

    /// Sets one tunable from text, as `PUT /tune/KEY/VALUE` (each percent-encoded as one path segment, so any
    /// text works): the server takes a JSON number as a number, anything else as a string (see ``TunePath``), and
    /// creates the key when it has no such tunable (unless its schema is closed).
    public func set(key: String, text: String) throws(TunablesClientError) -> Result {
        let reply = try call("PUT", TunePath.target(key: key, value: text), body: nil)
        return Result(seq: Self.seq(reply), value: reply["value"], count: nil)
    }

    /// Removes one tunable (`DELETE /tune/KEY`, the key percent-encoded as one segment); the service then reads
    /// its bundled default, if it has one.
    public func remove(key: String) throws(TunablesClientError) -> Result {
        let reply = try call("DELETE", "\(TunePath.root)/\(TunePath.encode(segment: key))", body: nil)
        return Result(seq: Self.seq(reply), value: nil, count: nil)
    }

    /// Replaces every tunable (`POST /tune`): keys left out are removed, the rest set, in one change.
    public func replace(with values: [String: StoreValue]) throws(TunablesClientError) -> Result {
        let reply = try call("POST", TunePath.root, body: StoreValue.object(values).jsonBytes(sortedKeys: true))
        return Result(seq: Self.seq(reply), value: nil, count: reply["count"]?.integerValue.map { Int($0) })
    }

    /// A `/tune` request to the server, or to the instance that `--instance` names on a fleet dashboard.
    private func call(_ method: String, _ target: String, body: [UInt8]?) throws(TunablesClientError) -> StoreValue {
        try exchange(method, target + (try instanceQuery()), body: body)
    }

    /// One request and its JSON answer; a refusal, a status without an error object or a body that is not JSON
    /// throws.
    func exchange(_ method: String, _ target: String, body: [UInt8]?) throws(TunablesClientError) -> StoreValue {
        let response: HTTPResponse
        do {
            response = try http.send(method: method, target: target, body: body)
        } catch {
            throw TunablesClientError(transport: error)
        }
        if let error = response.error {
            throw TunablesClientError(code: error.code, message: error.message, httpStatus: response.status)
        }
        guard (200..<300).contains(response.status) else {
            throw TunablesClientError(
                reply: "\(method) \(target) answered HTTP \(response.status) without an error object; is "
                    + "\(http.endpoint.hostHeader) a keyscope server?")
        }
        do {
            return try response.json()
        } catch {
            throw TunablesClientError(transport: error)
        }
    }

    /// `?instance=ID` for one instance of a fleet dashboard (which carries the route to it, docs/fleet.md); nothing
    /// for a server of one process. Every instance at once (`*`) is for ``setEverywhere(key:text:)`` and
    /// ``replaceEverywhere(with:)``.
    private func instanceQuery() throws(TunablesClientError) -> String {
        guard let instance = http.endpoint.instance else { return "" }
        guard instance != "*" else {
            throw TunablesClientError(
                reply: "this reaches one instance of the fleet: name it (--instance ID); only setting a tunable or "
                    + "replacing them all reaches every instance at once")
        }
        return "?instance=" + TunePath.encode(segment: instance)
    }

    private static func seq(_ reply: StoreValue) -> Int? {
        reply["seq"]?.integerValue.map { Int($0) }
    }
}

/// Why a ``TunablesClient`` call failed: the server refused it (``code`` is its error code), or there was no proper
/// answer (``transport`` says why).
///
/// ```swift
/// do { _ = try tunables.set(key: "nope", text: "1") }
/// catch where error.code == "unknown_key" { print(error) }   // unknown_key: no tunable "nope"; …
/// ```
public struct TunablesClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server's error code (`unknown_key`, `type_mismatch`, `out_of_range`, `read_only`, `no_tunables`,
    /// `unauthorized`, `bad_request`…); `nil` when the server was not reached or did not answer as expected.
    public let code: String?
    /// What went wrong, in words a person can act on.
    public let message: String
    /// The HTTP status of the server's refusal.
    public let httpStatus: Int?
    /// Why there was no proper answer (connection refused, timeout, not HTTP), when that was the trouble.
    public let transport: HTTPClientError?

    init(code: String, message: String, httpStatus: Int) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
        self.transport = nil
    }

    init(transport: HTTPClientError) {
        code = nil
        message = transport.message
        httpStatus = nil
        self.transport = transport
    }

    init(reply message: String) {
        self.init(transport: HTTPClientError(.badResponse, message))
    }

    /// `code: message` for a refusal, the message alone otherwise.
    public var description: String { code.map { "\($0): \(message)" } ?? message }
}
