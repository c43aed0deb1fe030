import CLibWebSockets
import Foundation
import KeyscopeCore
import KeyscopeInspector

/// Plain HTTP: the API endpoints and the static dashboard.
extension ServerCore {
    /// A request's headers are in. Host comes first, before anything else is looked at.
    func http(_ wsi: OpaquePointer) -> Int32 {
        _ = LwsLogging.takeParseFailure()
        let request = LwsRequest(wsi: wsi)
        guard let (method, path) = request.methodAndPath else {
            if let refused = refusal(request, checkOrigin: false) { return refuse(wsi, refused) }
            return LwsResponse.error(wsi, status: 400, code: "bad_request", message: "the request line cannot be read")
        }
        // PROTOCOL.md: every non-GET request with an Origin is checked (HEAD included).
        if let refused = refusal(request, checkOrigin: method != "GET") { return refuse(wsi, refused) }
        guard Self.isProtected(path) else { return staticFile(wsi, method: method, path: path) }
        guard authorized(request) else {
            return LwsResponse.error(
                wsi, status: 401, code: "unauthorized", message: Self.unauthorizedMessage,
                headers: [("WWW-Authenticate", "Bearer")])
        }
        switch (method, path) {
        case ("GET", "/api/health"):
            return LwsResponse.json(
                wsi, Array(#"{"ok":true,"protocol":\#(InspectorProtocol.version)}"#.utf8))
        case ("GET", "/api/snapshot"):
            return LwsResponse.json(wsi, hub.snapshot().messageBytes())
        case ("POST", "/api/request"):
            return beginBody(wsi, request, path: path)
        case (_, InspectorProtocol.webSocketPath):
            return LwsResponse.error(
                wsi, status: 400, code: "bad_request",
                message: "\(path) is the WebSocket endpoint: connect with a WebSocket client (subprotocol "
                    + "\(InspectorProtocol.subprotocol))")
        case (_, "/api/health"), (_, "/api/snapshot"):
            return LwsResponse.error(
                wsi, status: 405, code: "method_not_allowed", message: "\(path) answers GET only",
                headers: [("Allow", "GET")])
        case (_, "/api/request"):
            return LwsResponse.error(
                wsi, status: 405, code: "method_not_allowed", message: "\(path) answers POST only",
                headers: [("Allow", "POST")])
        default:
            return LwsResponse.error(wsi, status: 404, code: "not_found", message: "no endpoint \(method) \(path)")
        }
    }

    /// Paths that need the token: everything but the dashboard's files.
    static func isProtected(_ path: String) -> Bool {
        path == "/api" || path.hasPrefix("/api/") || path == InspectorProtocol.webSocketPath || path == "/tune"
            || path.hasPrefix("/tune/")
    }

    func refuse(_ wsi: OpaquePointer, _ refused: (status: Int, code: String, message: String)) -> Int32 {
        LwsResponse.error(wsi, status: refused.status, code: refused.code, message: refused.message)
    }

    // MARK: Static files

    private func staticFile(_ wsi: OpaquePointer, method: String, path: String) -> Int32 {
        guard method == "GET" || method == "HEAD" else {
            return LwsResponse.error(
                wsi, status: 405, code: "method_not_allowed", message: "the dashboard's files answer GET only",
                headers: [("Allow", "GET, HEAD")])
        }
        guard let files, case .file(let file, let mime) = files.resolve(path) else {
            return LwsResponse.error(wsi, status: 404, code: "not_found", message: "no file \(path)")
        }
        // One request per connection, as for every response (see LwsResponse.send).
        let extra = "cache-control: no-cache\r\nconnection: close\r\n"
        let result = lws_serve_http_file(wsi, file, mime, extra, Int32(extra.utf8.count))
        return result == 0 ? 0 : -1
    }

    // MARK: Bodies

    /// Checks a write's media type and declared length, then waits for its body.
    private func beginBody(_ wsi: OpaquePointer, _ request: LwsRequest, path: String) -> Int32 {
        if options.readOnly {
            return LwsResponse.error(
                wsi, status: 403, code: "read_only", message: RequestExecutor.readOnlyError.message)
        }
        let type = request.value(WSI_TOKEN_HTTP_CONTENT_TYPE) ?? ""
        let mediaType = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard mediaType == "application/json" else {
            return LwsResponse.error(
                wsi, status: 415, code: "unsupported_media_type",
                message: "send the body as Content-Type: application/json (got \"\(type)\")")
        }
        if let declared = request.value(WSI_TOKEN_HTTP_CONTENT_LENGTH).flatMap(Int.init),
            declared > options.maxBodyBytes
        {
            return tooLarge(wsi)
        }
        bodies[wsi] = PendingBody(path: path)
        return 0
    }

    func httpBody(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard var body = bodies[wsi] else { return 0 }
        guard body.bytes.count + length <= options.maxBodyBytes else {
            bodies[wsi] = nil
            return tooLarge(wsi)
        }
        if let input, length > 0 {
            body.bytes.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        bodies[wsi] = body
        return 0
    }

    func httpBodyCompleted(_ wsi: OpaquePointer) -> Int32 {
        guard let body = bodies.removeValue(forKey: wsi) else { return 0 }
        let outcome = executor.execute(body.bytes)
        let status = outcome.error.map { Self.status(for: $0.code) } ?? 200
        return LwsResponse.json(wsi, outcome.reply, status: status)
    }

    /// 413, then the connection closes: the rest of the body is not read.
    private func tooLarge(_ wsi: OpaquePointer) -> Int32 {
        _ = LwsResponse.error(
            wsi, status: 413, code: "too_large",
            message: "the body is over the server's limit of \(options.maxBodyBytes) bytes")
        return -1
    }

    /// The HTTP status of a reply's error code for `POST /api/request`.
    static func status(for code: HubError.Code) -> Int {
        switch code {
        case .readOnly, .unauthorized: code == .readOnly ? 403 : 401
        case .unknownStore: 404
        case .conflict: 409
        case .tooLarge: 413
        default: 400
        }
    }
}
