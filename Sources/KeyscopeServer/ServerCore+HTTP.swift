import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeLws
import KeyscopeProtocol
import Logging

/// Plain HTTP: the API endpoints and the static dashboard.
extension ServerCore {
    /// A request's headers are in. Host comes first, before anything else is looked at.
    func http(_ wsi: LwsConnection) -> Int32 {
        let request = LwsRequest(wsi)
        let rawLine = requestLines.take(wsi).flatMap(RawRequestLine.init)
        if let refused = hostRefusal(request) { return LwsResponse.refuse(wsi, refused) }
        guard let (sentMethod, path) = request.methodAndPath else {
            return LwsResponse.error(wsi, status: 400, code: "bad_request", message: "the request line cannot be read")
        }
        // docs/protocol.md: every non-GET request with an Origin is checked (HEAD included).
        if sentMethod != "GET", let refused = originRefusal(request) { return LwsResponse.refuse(wsi, refused) }
        // Past the checks, HEAD is routed as GET: `LwsResponse.send` leaves the body out.
        let method = sentMethod == "HEAD" ? "GET" : sentMethod
        let table = routeTable()
        let raw = rawLine.flatMap { $0.method == sentMethod ? $0 : nil }
        guard table.isProtected(path) || (raw.map { table.isProtected($0.path) } ?? false) else {
            return staticFile(wsi, method: method, path: path)
        }
        guard authorized(request) else { return LwsResponse.refuse(wsi, .unauthorized) }
        switch table.match(method: method, decodedPath: path, raw: raw) {
        case .route(let route, let rest):
            return begin(
                wsi, request, route,
                call: ServerRoute.Call(
                    method: FeatureRoute.Method(rawValue: method) ?? .get, path: path, rest: rest, json: nil, bytes: [],
                    query: Self.query(of: request))
            )
        case .methodNotAllowed(let allow, let routePath):
            return methodNotAllowed(wsi, routePath, allow: allow.joined(separator: ", "))
        case .unreadable(let prefix):
            return hubError(
                wsi,
                .badRequest(
                    "the path could not be read as it was sent; write it under \(prefix) with each segment "
                        + "percent-encoded and without dot segments or empty segments"))
        case .notFound where path == InspectorProtocol.webSocketPath:
            return LwsResponse.error(
                wsi, status: 400, code: "bad_request",
                message: "\(path) is the WebSocket endpoint: connect with a WebSocket client (subprotocol "
                    + "\(InspectorProtocol.subprotocol))")
        case .notFound:
            return LwsResponse.error(wsi, status: 404, code: "not_found", message: "no endpoint \(method) \(path)")
        }
    }

    /// The request's query parameters: the first of each name.
    static func query(of request: LwsRequest) -> [String: String] {
        var query: [String: String] = [:]
        for item in request.queryItems where query[item.name] == nil { query[item.name] = item.value }
        return query
    }

    /// The route table for the hub's features as they are now (rebuilt when a feature was added).
    func routeTable() -> RouteTable {
        let count = hub.featureCount
        if let cached = routes, cached.featureCount == count { return cached.table }
        let table = RouteTable(builtIn: builtInRoutes(), features: hub.features)
        routes = (count, table)
        return table
    }

    /// Starts a routed request: the read-only refusal of a route that writes, then its body (if it takes one), then
    /// its handler.
    private func begin(_ wsi: LwsConnection, _ request: LwsRequest, _ route: ServerRoute, call: ServerRoute.Call)
        -> Int32
    {
        if route.writes, options.readOnly || hub.options.readOnly {
            return hubError(wsi, route.readOnlyRefusal ?? hub.readOnlyRefusal)
        }
        switch route.body {
        case .none:
            return route.runsInline ? answer(wsi, route.run(call)) : submit(wsi, route, call, body: [])
        case .optionalJSON:
            guard Self.hasBody(request) else { return completed(wsi, PendingBody(route: route, call: call)) }
            return beginBody(wsi, request, PendingBody(route: route, call: call))
        case .json, .bytes:
            return beginBody(wsi, request, PendingBody(route: route, call: call))
        }
    }

    /// Sends what a route's handler answered.
    func answer(_ wsi: LwsConnection, _ answer: ServerRoute.Answer) -> Int32 {
        switch answer {
        case .json(let value, let status):
            return LwsResponse.json(wsi, value.jsonBytes(sortedKeys: true), status: status)
        case .bytes(let bytes, let status): return LwsResponse.json(wsi, bytes, status: status)
        case .error(let error): return hubError(wsi, error)
        case .file(let path, let type, let headers):
            return sendFile(wsi, path: path, contentType: type, headers: headers)
        case .later:
            // Only routes run on the worker may answer later (the worker waits for them); an inline one may not.
            return LwsResponse.error(
                wsi, status: 500, code: "internal", message: "this route answered later, which only worker routes may")
        }
    }

    /// 405 with `Allow`; a path that answers GET answers HEAD too, and says so.
    func methodNotAllowed(_ wsi: LwsConnection, _ path: String, allow: String) -> Int32 {
        let allow = allow.replacingOccurrences(of: "GET", with: "GET, HEAD")
        let methods = allow.replacingOccurrences(of: ", ", with: " and ")
        return LwsResponse.error(
            wsi, status: 405, code: "method_not_allowed", message: "\(path) answers \(methods) only",
            headers: [("Allow", allow)])
    }

    /// A refusal of the hub as an HTTP error, with the status of its code.
    func hubError(_ wsi: LwsConnection, _ error: HubError) -> Int32 {
        LwsResponse.error(wsi, status: error.code.httpStatus, code: error.code.rawValue, message: error.message)
    }

    // MARK: Static files

    private func staticFile(_ wsi: LwsConnection, method: String, path: String) -> Int32 {
        guard method == "GET" || method == "HEAD" else {
            return LwsResponse.error(
                wsi, status: 405, code: "method_not_allowed", message: "the dashboard's files answer GET only",
                headers: [("Allow", "GET, HEAD")])
        }
        guard let files, case .file(let file, let mime) = files.resolve(path) else {
            if let files, !files.rootExists { return filesMissing(wsi, files) }
            return LwsResponse.error(wsi, status: 404, code: "not_found", message: "no file \(path)")
        }
        missingFilesReported = false
        // One request per connection, as for every response (see LwsResponse.send).
        let extra = "cache-control: no-cache\r\nconnection: close\r\n"
        return wsi.serveFile(file, contentType: mime, extraHeaders: extra) ? 0 : -1
    }

    /// The public directory itself is gone (deleted while serving): 404 for its files, said once in the log (again
    /// after it came back and went again), while the API and the WebSocket go on.
    private func filesMissing(_ wsi: LwsConnection, _ files: StaticFiles) -> Int32 {
        if !missingFilesReported {
            missingFilesReported = true
            let text =
                "the dashboard's files at \(files.root) are gone (deleted or moved while serving): their requests get "
                + "404 until the directory is back; the API and the WebSocket go on"
            logger.error("\(text)")
        }
        return LwsResponse.error(
            wsi, status: 404, code: "not_found",
            message: "the dashboard's files are missing on the server (\(files.root) is gone); the API still works")
    }

    // MARK: Bodies

    /// A request body being received, and the route it is for.
    struct PendingBody {
        let route: ServerRoute
        var call: ServerRoute.Call
        var bytes: [UInt8] = []
        /// Set for a body sent with `Transfer-Encoding: chunked`, which the server decodes itself (lws 4.1 neither
        /// decodes it nor reports its end).
        var chunked: ChunkedDecoder?

        init(route: ServerRoute, call: ServerRoute.Call) {
            self.route = route
            self.call = call
        }

        /// Decodes the next bytes of a chunked body into ``bytes``; returns whether the body is whole.
        mutating func receiveChunked(_ input: UnsafeRawBufferPointer, limit: Int) throws(ChunkedDecoder.Failure)
            -> Bool
        {
            try chunked?.feed(input, into: &bytes, limit: limit)
            return chunked?.isComplete ?? false
        }
    }

    /// Checks a body's media type and declared length, then waits for it. A request that announces no body (no
    /// `Content-Length`, or 0) is answered at once as one with an empty body: lws would never call back.
    private func beginBody(_ wsi: LwsConnection, _ request: LwsRequest, _ pending: PendingBody) -> Int32 {
        let type = request.value(.contentType) ?? ""
        let mediaType = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard mediaType == "application/json" else {
            return LwsResponse.error(
                wsi, status: 415, code: "unsupported_media_type",
                message: "send the body as Content-Type: application/json (got \"\(type)\")")
        }
        if let declared = request.value(.contentLength).flatMap(Int.init),
            declared > options.maxBodyBytes
        {
            return tooLarge(wsi)
        }
        if let declared = request.value(.contentLength).flatMap(Int.init), !bodyBudgetAllows(declared) {
            return bodiesBusy(wsi)
        }
        guard Self.hasBody(request) else { return completed(wsi, pending) }
        var pending = pending
        if request.value(.contentLength) == nil,
            let coding = request.value(.transferEncoding)
        {
            // Only chunked framing is known; a body in another coding (gzip, say) could not be read.
            guard coding.trimmingCharacters(in: .whitespaces).lowercased() == "chunked" else {
                return LwsResponse.error(
                    wsi, status: 501, code: "not_implemented",
                    message: "Transfer-Encoding \"\(coding)\" is not supported; send the body as is (chunked or with a "
                        + "Content-Length)")
            }
            pending.chunked = ChunkedDecoder()
        }
        bodies[wsi] = pending
        return 0
    }

    func httpBody(_ wsi: LwsConnection, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        if bodies[wsi]?.chunked != nil { return chunkedBody(wsi, UnsafeRawBufferPointer(start: input, count: length)) }
        guard let received = bodies[wsi]?.bytes.count else { return 0 }
        guard received + length <= options.maxBodyBytes else {
            bodies[wsi] = nil
            return tooLarge(wsi)
        }
        guard bodyBudgetAllows(length) else { return bodiesBusy(wsi) }
        if let input, length > 0 {
            bodies[wsi]?.bytes.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        return 0
    }

    /// The next bytes of a chunked body: decoded in place; answered once the last chunk is in, refused (and the
    /// connection closed) when it passes the limit or its framing breaks.
    private func chunkedBody(_ wsi: LwsConnection, _ input: UnsafeRawBufferPointer) -> Int32 {
        guard bodyBudgetAllows(input.count) else { return bodiesBusy(wsi) }
        let whole: Bool
        do throws(ChunkedDecoder.Failure) {
            whole = try bodies[wsi]?.receiveChunked(input, limit: options.maxBodyBytes) ?? false
        } catch {
            bodies[wsi] = nil
            switch error {
            case .tooLarge: return tooLarge(wsi)
            case .malformed(let why):
                return LwsResponse.error(
                    wsi, status: 400, code: "bad_request", message: "the chunked body cannot be read: \(why)")
            }
        }
        guard whole, let body = bodies.removeValue(forKey: wsi) else { return 0 }
        return completed(wsi, body)
    }

    func httpBodyCompleted(_ wsi: LwsConnection) -> Int32 {
        guard let body = bodies.removeValue(forKey: wsi) else { return 0 }
        return completed(wsi, body)
    }

    /// A whole body is in: hands it to its route, on the worker (which decodes it).
    private func completed(_ wsi: LwsConnection, _ body: PendingBody) -> Int32 {
        submit(wsi, body.route, body.call, body: body.bytes)
    }

    /// 413, then the connection closes: the rest of the body is not read.
    private func tooLarge(_ wsi: LwsConnection) -> Int32 {
        LwsResponse.error(
            wsi, status: 413, code: HubError.Code.tooLarge.rawValue,
            message: "the body is over the server's limit of \(options.maxBodyBytes) bytes")
    }
}
