import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol

/// Every HTTP route the server answers besides its static files: its own (health, snapshot, requests, rewind) and
/// each feature's. Routing, 404, 405 with `Allow`, `HEAD`, the token check and read-only refusals are all derived
/// from this one table, so no path is written twice.
///
/// ```swift
/// let table = RouteTable(builtIn: core.builtInRoutes(), features: hub.features)
/// switch table.match(method: "PUT", decodedPath: "/tune/a/b/5", raw: line) {
/// case .route(let route, let rest): …          // rest == ["a%2Fb", "5"], the segments as sent
/// case .methodNotAllowed(let allow, let path): …
/// case .unreadable(let route): …                 // routed by a path that the request line does not hold
/// case .notFound: …
/// }
/// ```
struct RouteTable: Sendable {
    let routes: [ServerRoute]

    /// The literal prefixes of the routes that read the path as sent, with the advice their decoding errors end in.
    private let asSentPrefixes: [(segments: [String], advice: String)]

    init(builtIn: [ServerRoute], features: [any InspectorFeature]) {
        let featureRoutes = features.flatMap { feature in feature.routes }
        let replaced = featureRoutes.filter(\.replacesBuiltIn)
        let kept = builtIn.filter { own in
            !replaced.contains { $0.method == own.method && $0.segments == own.segments }
        }
        routes = kept + featureRoutes.map(ServerRoute.init(feature:))
        var prefixes: [(segments: [String], advice: String)] = []
        for route in routes {
            guard case .asSent(let advice) = route.pathForm else { continue }
            let literal = Array(route.prefix)
            if !prefixes.contains(where: { $0.segments == literal }) { prefixes.append((literal, advice)) }
        }
        asSentPrefixes = prefixes
    }

    enum Match {
        /// The route, and the segments its `*` took (as sent for an ``FeatureRoute/PathForm/asSent`` route).
        case route(ServerRoute, rest: [String])
        /// The path has routes, none for this method: 405 with `Allow`.
        case methodNotAllowed(allow: [String], path: String)
        /// The decoded path is under a route that reads the path as sent, but the request line's path is not
        /// there (it went there through dot segments or `//`, or the line could not be read): refused, never guessed.
        case unreadable(path: String)
        case notFound
    }

    /// The route for a request. A request whose path as sent lies under a route that reads it as sent is routed by
    /// that path (segments compared as sent); every other request by lws's decoded path. Among the routes that match
    /// a path, those with the most literal segments win.
    func match(method: String, decodedPath: String, raw: RawRequestLine?) -> Match {
        let decoded = Self.segments(decodedPath)
        let sent = raw.map { Self.segments($0.path) }
        let bySent = sent.map { sent in asSentPrefixes.contains { Self.isUnder(sent, $0.segments) } } ?? false
        let segments = bySent ? sent ?? decoded : decoded
        if !bySent, let prefix = asSentPrefixes.first(where: { Self.isUnder(decoded, $0.segments) }) {
            return .unreadable(path: "/" + prefix.segments.joined(separator: "/"))
        }
        let matching = routes.filter { $0.matches(segments) }
        guard let best = matching.map(\.literalCount).max() else { return .notFound }
        let candidates = matching.filter { $0.literalCount == best }
        guard let route = candidates.first(where: { $0.method.rawValue == method }) else {
            var allow: [String] = []
            for candidate in candidates where !allow.contains(candidate.method.rawValue) {
                allow.append(candidate.method.rawValue)
            }
            return .methodNotAllowed(allow: allow, path: candidates[0].displayPath)
        }
        return .route(route, rest: route.captures(segments))
    }

    /// Whether a path needs the token: `/api` and below, the WebSocket endpoint, and whatever a route lies under.
    func isProtected(_ path: String) -> Bool {
        if path == "/api" || path.hasPrefix("/api/") || path == InspectorProtocol.webSocketPath { return true }
        let segments = Self.segments(path)
        return routes.contains { route in
            !route.prefix.isEmpty && Self.isUnder(segments, Array(route.prefix.prefix(1)))
        }
    }

    /// Why a path that is read as sent cannot be decoded (a bad escape, a control character, not UTF-8): lws could
    /// not pass such a request on intact, so the server refuses it as soon as it sees the line. `nil` when the path
    /// is fine or under no such route.
    func undecodableSegment(_ raw: RawRequestLine) -> HubError? {
        let sent = Self.segments(raw.path)
        for prefix in asSentPrefixes where Self.isUnder(sent, prefix.segments) {
            do throws(HubError) {
                for segment in sent.dropFirst(prefix.segments.count) {
                    _ = try PathSegment.decode(segment, controlCharacterAdvice: prefix.advice)
                }
            } catch {
                return error
            }
        }
        return nil
    }

    /// `/a/b` → `["a", "b"]`; `/` → `[""]`.
    static func segments(_ path: String) -> [String] {
        path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }

    /// Whether `segments` is `prefix` or below it.
    private static func isUnder(_ segments: [String], _ prefix: [String]) -> Bool {
        segments.count >= prefix.count && Array(segments.prefix(prefix.count)) == prefix
    }
}

/// One row of the ``RouteTable``: a feature's route, or one of the server's own.
struct ServerRoute: Sendable {
    /// What a route's handler answers.
    enum Answer: Sendable {
        case json(StoreValue, status: Int)
        /// JSON already encoded.
        case bytes([UInt8], status: Int)
        case file(String, contentType: String, headers: [String: String])
        case error(HubError)
        /// Answered later, from any thread: `start` is called once with the function that takes the answer (a route
        /// run on the request worker only; see ``FeatureRoute/Response/later(_:)``).
        case later(@Sendable (_ answer: @escaping @Sendable (Answer) -> Void) -> Void)
    }

    /// What the server reads before the handler runs.
    enum Body: Sendable, Hashable {
        case none
        /// Decoded as JSON (`nil` when empty).
        case json
        /// Decoded as JSON; a request that announces no body is answered at once.
        case optionalJSON
        /// Handed over as bytes (`POST /api/request` parses its own message).
        case bytes
    }

    /// What a handler gets.
    struct Call: Sendable {
        var method: FeatureRoute.Method
        var path: String
        var rest: [String]
        var json: StoreValue?
        var bytes: [UInt8]
        /// The query's parameters, percent-decoded (the first of each name).
        var query: [String: String] = [:]
    }

    let method: FeatureRoute.Method
    let segments: [String]
    let body: Body
    let writes: Bool
    let pathForm: FeatureRoute.PathForm
    let readOnlyRefusal: HubError?
    /// Whether the handler of a route without a body runs on the service thread itself rather than on the
    /// ``RequestWorker`` (`/api/health`: constant work, answered even while the worker's threads are busy).
    let runsInline: Bool
    /// Whether a fleet dashboard may carry the route to this instance (``FeatureRoute/crossesFleet``).
    let crossesFleet: Bool
    let run: @Sendable (Call) -> Answer

    init(
        _ method: FeatureRoute.Method, _ path: String, body: Body = .none, writes: Bool = false,
        inline: Bool = false, run: @escaping @Sendable (Call) -> Answer
    ) {
        self.method = method
        self.segments = RouteTable.segments(path)
        self.body = body
        self.writes = writes
        self.pathForm = .decoded
        self.readOnlyRefusal = nil
        self.runsInline = inline
        self.crossesFleet = false
        self.run = run
    }

    init(feature route: FeatureRoute) {
        method = route.method
        segments = route.segments
        body =
            switch route.body {
            case .none: .none
            case .json: .json
            case .optionalJSON: .optionalJSON
            case .bytes: .bytes
            }
        writes = route.writes
        pathForm = route.pathForm
        readOnlyRefusal = route.readOnlyRefusal
        runsInline = false
        crossesFleet = route.crossesFleet
        run = { call in
            do throws(HubError) {
                let request = FeatureRoute.Request(
                    method: call.method, path: call.path, rest: call.rest, body: call.json, query: call.query,
                    bytes: call.bytes)
                return Self.answer(try route.handle(request))
            } catch {
                return .error(error)
            }
        }
    }

    /// A feature's response as the server answers it.
    private static func answer(_ response: FeatureRoute.Response) -> Answer {
        switch response {
        case .json(let value, let status): .json(value, status: status)
        case .encoded(let bytes, let status): .bytes(bytes, status: status)
        case .file(let url, let type, let headers): .file(url.path, contentType: type, headers: headers)
        case .later(let start): .later { done in start { response in done(answer(response)) } }
        }
    }

    var takesRest: Bool { segments.last == "*" }

    /// How many segments are literal (not `:name` or `*`): the more, the more specific the route.
    var literalCount: Int { segments.filter { !Self.isPlaceholder($0) }.count }

    /// The literal segments before the first placeholder.
    var prefix: ArraySlice<String> { segments.prefix { !Self.isPlaceholder($0) } }

    /// The path as people write it (`/tune/…`, `/api/recordings/SOURCE/NAME`).
    var displayPath: String {
        "/"
            + segments.map { segment in
                segment == "*" ? "…" : segment.hasPrefix(":") ? segment.dropFirst().uppercased() : segment
            }.joined(separator: "/")
    }

    func matches(_ path: [String]) -> Bool {
        let fixed = takesRest ? segments.dropLast() : segments[...]
        guard takesRest ? path.count > fixed.count : path.count == fixed.count else { return false }
        return zip(fixed, path).allSatisfy { pattern, segment in pattern.hasPrefix(":") || pattern == segment }
    }

    /// The segments the placeholders took, in order (what `*` took last).
    func captures(_ path: [String]) -> [String] {
        var captured: [String] = []
        for (index, pattern) in segments.enumerated() {
            if pattern == "*" {
                captured += path.dropFirst(index)
            } else if pattern.hasPrefix(":") {
                captured.append(path[index])
            }
        }
        return captured
    }

    private static func isPlaceholder(_ segment: String) -> Bool { segment == "*" || segment.hasPrefix(":") }
}
