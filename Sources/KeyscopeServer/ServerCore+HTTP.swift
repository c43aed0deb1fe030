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
        if let refused = hostRefusal(request) { return LwsResponse.refuse(wsi, refused) }
        guard let (method, path) = request.methodAndPath else {
            return LwsResponse.error(wsi, status: 400, code: "bad_request", message: "the request line cannot be read")
        }
        // PROTOCOL.md: every non-GET request with an Origin is checked (HEAD included).
        if method != "GET", let refused = originRefusal(request) { return LwsResponse.refuse(wsi, refused) }
        guard Self.isProtected(path) else { return staticFile(wsi, method: method, path: path) }
        guard authorized(request) else { return LwsResponse.refuse(wsi, .unauthorized) }
        switch (method, path) {
        case ("GET", "/api/health"):
            return LwsResponse.json(
                wsi, Array(#"{"ok":true,"protocol":\#(InspectorProtocol.version)}"#.utf8))
        case ("GET", "/api/snapshot"):
            return LwsResponse.json(wsi, hub.snapshot().messageBytes())
        case ("POST", "/api/request"):
            return beginBody(wsi, request)
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
    private func beginBody(_ wsi: OpaquePointer, _ request: LwsRequest) -> Int32 {
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
        bodies[wsi] = []
        return 0
    }

    func httpBody(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let received = bodies[wsi]?.count else { return 0 }
        guard received + length <= options.maxBodyBytes else {
            bodies[wsi] = nil
            return tooLarge(wsi)
        }
        if let input, length > 0 {
            bodies[wsi]?.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        return 0
    }

    func httpBodyCompleted(_ wsi: OpaquePointer) -> Int32 {
        guard let body = bodies.removeValue(forKey: wsi) else { return 0 }
        let outcome = executor.execute(body)
        let status = outcome.error.map { Self.status(for: $0.code) } ?? 200
        return LwsResponse.json(wsi, outcome.reply, status: status)
    }

    /// 413, then the connection closes: the rest of the body is not read.
    private func tooLarge(_ wsi: OpaquePointer) -> Int32 {
        LwsResponse.error(
            wsi, status: 413, code: "too_large",
            message: "the body is over the server's limit of \(options.maxBodyBytes) bytes")
    }

    /// The HTTP status of a reply's error code for `POST /api/request`.
    static func status(for code: HubError.Code) -> Int {
        switch code {
        case .readOnly: 403
        case .unknownStore: 404
        case .conflict: 409
        default: 400
        }
    }
}
