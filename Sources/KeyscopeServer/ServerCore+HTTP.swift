import CLibWebSockets
import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import Logging

/// Plain HTTP: the API endpoints and the static dashboard.
extension ServerCore {
    /// A request's headers are in. Host comes first, before anything else is looked at.
    func http(_ wsi: OpaquePointer) -> Int32 {
        _ = LwsLogging.takeParseFailure()
        let request = LwsRequest(wsi: wsi)
        let rawLine = requestLines.take(wsi).flatMap(RawRequestLine.init)
        if let refused = hostRefusal(request) { return LwsResponse.refuse(wsi, refused) }
        guard let (sentMethod, path) = request.methodAndPath else {
            return LwsResponse.error(wsi, status: 400, code: "bad_request", message: "the request line cannot be read")
        }
        // PROTOCOL.md: every non-GET request with an Origin is checked (HEAD included).
        if sentMethod != "GET", let refused = originRefusal(request) { return LwsResponse.refuse(wsi, refused) }
        // Past the checks, HEAD is routed as GET: `LwsResponse.send` leaves the body out.
        let method = sentMethod == "HEAD" ? "GET" : sentMethod
        let tune = TuneRoute(raw: rawLine, method: method, decodedPath: path)
        let preference = PreferenceRoute(raw: rawLine, method: method, decodedPath: path)
        guard tune != nil || preference != nil || Self.isProtected(path) else {
            return staticFile(wsi, method: method, path: path)
        }
        guard authorized(request) else { return LwsResponse.refuse(wsi, .unauthorized) }
        if let tune { return serveTune(wsi, request, tune) }
        if let preference { return servePreferences(wsi, request, preference) }
        if let recording = RecordingRoute(path: path) {
            return serveRecordings(wsi, request, method: method, recording)
        }
        switch (method, path) {
        case ("GET", "/api/health"):
            return LwsResponse.json(
                wsi, Array(#"{"ok":true,"protocol":\#(InspectorProtocol.version)}"#.utf8))
        case ("GET", "/api/snapshot"):
            return LwsResponse.json(wsi, hub.snapshot().messageBytes())
        case ("GET", "/api/tunables"):
            return tunablesPanel(wsi)
        case ("POST", "/api/request"):
            return beginBody(wsi, request, for: .request)
        case ("POST", Self.rewindPath):
            return beginBody(wsi, request, for: .rewind)
        case ("GET", PreferencePath.watches):
            return watchesPanel(wsi)
        case ("POST", PreferencePath.watchesRefresh):
            return beginOptionalBody(wsi, request, for: .watchesRefresh)
        case (_, InspectorProtocol.webSocketPath):
            return LwsResponse.error(
                wsi, status: 400, code: "bad_request",
                message: "\(path) is the WebSocket endpoint: connect with a WebSocket client (subprotocol "
                    + "\(InspectorProtocol.subprotocol))")
        case (_, "/api/health"), (_, "/api/snapshot"), (_, "/api/tunables"), (_, PreferencePath.watches):
            return methodNotAllowed(wsi, path, allow: "GET")
        case (_, "/api/request"), (_, Self.rewindPath), (_, PreferencePath.watchesRefresh):
            return methodNotAllowed(wsi, path, allow: "POST")
        default:
            return LwsResponse.error(wsi, status: 404, code: "not_found", message: "no endpoint \(method) \(path)")
        }
    }

    /// 405 with `Allow`; a path that answers GET answers HEAD too, and says so.
    func methodNotAllowed(_ wsi: OpaquePointer, _ path: String, allow: String) -> Int32 {
        let allow = allow.replacingOccurrences(of: "GET", with: "GET, HEAD")
        let methods = allow.replacingOccurrences(of: ", ", with: " and ")
        return LwsResponse.error(
            wsi, status: 405, code: "method_not_allowed", message: "\(path) answers \(methods) only",
            headers: [("Allow", allow)])
    }

    /// A refusal of the hub as an HTTP error, with the status of its code.
    func hubError(_ wsi: OpaquePointer, _ error: HubError) -> Int32 {
        LwsResponse.error(wsi, status: Self.status(for: error.code), code: error.code.rawValue, message: error.message)
    }

    /// Paths that need the token: everything but the dashboard's files (and whatever ``TuneRoute`` or
    /// ``PreferenceRoute`` reads from the request line as sent).
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
            if let files, !files.rootExists { return filesMissing(wsi, files) }
            return LwsResponse.error(wsi, status: 404, code: "not_found", message: "no file \(path)")
        }
        missingFilesReported = false
        // One request per connection, as for every response (see LwsResponse.send).
        let extra = "cache-control: no-cache\r\nconnection: close\r\n"
        let result = lws_serve_http_file(wsi, file, mime, extra, Int32(extra.utf8.count))
        return result == 0 ? 0 : -1
    }

    /// The public directory itself is gone (deleted while serving): 404 for its files, said once in the log (again
    /// after it came back and went again), while the API and the WebSocket go on.
    private func filesMissing(_ wsi: OpaquePointer, _ files: StaticFiles) -> Int32 {
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

    /// A request body being received, and the endpoint it is for.
    struct PendingBody {
        enum Purpose: Hashable {
            /// `POST /api/request`: one protocol request.
            case request
            /// `POST /tune`: the new set of tunables.
            case tunables
            /// `PUT /api/preferences/:source/:container/:key`: `{"value": …}` for that preference.
            case preference(PreferenceRef)
            /// `POST /api/preferences/refresh` with a body (empty or `{}`).
            case preferencesRefresh
            /// `POST /api/watches/refresh` with a body (empty or `{}`).
            case watchesRefresh
            /// `POST /api/rewind`: `{"seq": N}`.
            case rewind
            /// `POST /api/recordings` with a body: the recording's options.
            case recordingStart
            /// `POST /api/recordings/recordings/<name>/stop` with a body (empty or `{}`).
            case recordingStop(name: String)
        }

        let purpose: Purpose
        var bytes: [UInt8] = []
        /// Set for a body sent with `Transfer-Encoding: chunked`, which the server decodes itself (lws 4.1 neither
        /// decodes it nor reports its end).
        var chunked: ChunkedDecoder?

        /// Decodes the next bytes of a chunked body into ``bytes``; returns whether the body is whole.
        mutating func receiveChunked(_ input: UnsafeRawBufferPointer, limit: Int) throws(ChunkedDecoder.Failure)
            -> Bool
        {
            try chunked?.feed(input, into: &bytes, limit: limit)
            return chunked?.isComplete ?? false
        }
    }

    /// A `POST` whose body is optional and that only reads state (the refreshes, starting and stopping
    /// recordings): answered at once as one with an empty body when it announces none, else received with every
    /// write's checks (media type, size) but not refused on a read-only server.
    func beginOptionalBody(_ wsi: OpaquePointer, _ request: LwsRequest, for purpose: PendingBody.Purpose) -> Int32 {
        guard Self.hasBody(request) else { return completed(wsi, PendingBody(purpose: purpose)) }
        return beginBody(wsi, request, for: purpose, refusingReadOnly: false)
    }

    /// Checks a write's media type and declared length, then waits for its body. A read-only server refuses the
    /// request first, unless `refusingReadOnly` is off (the refreshes, which only read). A request that announces no
    /// body (no `Content-Length`, or 0) is answered at once as one with an empty body: lws would never call back.
    func beginBody(
        _ wsi: OpaquePointer, _ request: LwsRequest, for purpose: PendingBody.Purpose, refusingReadOnly: Bool = true
    ) -> Int32 {
        if refusingReadOnly, options.readOnly { return hubError(wsi, RequestExecutor.readOnlyError) }
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
        if let declared = request.value(WSI_TOKEN_HTTP_CONTENT_LENGTH).flatMap(Int.init), !bodyBudgetAllows(declared) {
            return bodiesBusy(wsi)
        }
        guard Self.hasBody(request) else { return completed(wsi, PendingBody(purpose: purpose)) }
        var pending = PendingBody(purpose: purpose)
        if request.value(WSI_TOKEN_HTTP_CONTENT_LENGTH) == nil,
            let coding = request.value(WSI_TOKEN_HTTP_TRANSFER_ENCODING)
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

    func httpBody(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
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
    private func chunkedBody(_ wsi: OpaquePointer, _ input: UnsafeRawBufferPointer) -> Int32 {
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

    func httpBodyCompleted(_ wsi: OpaquePointer) -> Int32 {
        guard let body = bodies.removeValue(forKey: wsi) else { return 0 }
        return completed(wsi, body)
    }

    /// A whole body is in: hands it to its endpoint.
    private func completed(_ wsi: OpaquePointer, _ body: PendingBody) -> Int32 {
        switch body.purpose {
        case .request:
            let outcome = executor.execute(body.bytes)
            let status = outcome.error.map { Self.status(for: $0.code) } ?? 200
            return LwsResponse.json(wsi, outcome.reply, status: status)
        case .tunables:
            return replaceTunables(wsi, body.bytes)
        case .preference(let ref):
            return setPreference(wsi, ref, body.bytes)
        case .preferencesRefresh, .watchesRefresh:
            return runRefresh(wsi, body.purpose, body.bytes)
        case .rewind:
            return rewindBodyCompleted(wsi, body.bytes)
        case .recordingStart:
            return startRecording(wsi, body.bytes)
        case .recordingStop(let name):
            return stopRecording(wsi, name: name, body.bytes)
        }
    }

    /// 413, then the connection closes: the rest of the body is not read.
    private func tooLarge(_ wsi: OpaquePointer) -> Int32 {
        LwsResponse.error(
            wsi, status: 413, code: HubError.Code.tooLarge.rawValue,
            message: "the body is over the server's limit of \(options.maxBodyBytes) bytes")
    }

    /// The HTTP status of an error code, for `POST /api/request` replies and the `/tune`, `/api/preferences`,
    /// `/api/watches`, `/api/recordings` and `/api/rewind` endpoints.
    static func status(for code: HubError.Code) -> Int {
        switch code {
        case .readOnly: 403
        case .unknownStore, .unknownKey, .noTunables, .noPreferences, .noWatches, .noRecordings, .notFound: 404
        case .conflict: 409
        case .tooLarge: 413
        case .tooMany: 429
        case .noSpace: 507
        default: 400
        }
    }
}
