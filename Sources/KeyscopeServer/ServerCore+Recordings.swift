import CLibWebSockets
import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol

/// Which `/api/recordings` endpoint a request is for (docs/recording.md "HTTP"), read from lws's decoded path: a
/// recording's name is a plain file name (`[A-Za-z0-9._-]`), so nothing in it needs the path as sent. Whatever else
/// a segment holds goes to the recordings endpoint as it is, which answers `not_found` for names it does not serve
/// (lws has already resolved dot segments and `//`, and decoded `%2F` into a separator, which makes another shape).
enum RecordingRoute: Sendable, Hashable {
    /// `/api/recordings` (`GET`: the listing, `POST`: start a recording).
    case list
    /// `/api/recordings/<source>/<name>` (`GET`: the file).
    case file(source: String, name: String)
    /// `/api/recordings/recordings/<name>/stop` (`POST`).
    case stop(name: String)
    /// Anything else under `/api/recordings/`.
    case unknown

    static let root = "/api/recordings"

    /// `nil` when the path is not `/api/recordings` or below.
    init?(path: String) {
        if path == Self.root {
            self = .list
            return
        }
        guard path.hasPrefix(Self.root + "/") else { return nil }
        let segments = path.dropFirst(Self.root.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        switch segments.count {
        case 2: self = .file(source: String(segments[0]), name: String(segments[1]))
        case 3 where segments[0] == "recordings" && segments[2] == "stop": self = .stop(name: String(segments[1]))
        default: self = .unknown
        }
    }
}

/// The recordings endpoints: `GET` and `POST /api/recordings`, `GET /api/recordings/<source>/<name>` and
/// `POST /api/recordings/recordings/<name>/stop`. The `POST`s are refused on a read-only server (`read_only`):
/// a recording writes a file and holds a descriptor in the host.
extension ServerCore {
    /// A request for `/api/recordings` or below, after the token check.
    func serveRecordings(_ wsi: OpaquePointer, _ request: LwsRequest, method: String, _ route: RecordingRoute)
        -> Int32
    {
        switch (route, method) {
        case (.list, "GET"):
            do {
                return LwsResponse.json(wsi, try hub.recordingsListing().jsonBytes(sortedKeys: true))
            } catch {
                return hubError(wsi, error)
            }
        case (.list, "POST"):
            // Read-only first, before the body (as every write route): a recording writes a file.
            if options.readOnly { return hubError(wsi, InspectorHub.recordingReadOnlyError) }
            return beginOptionalBody(wsi, request, for: .recordingStart)
        case (.list, _):
            return methodNotAllowed(wsi, RecordingRoute.root, allow: "GET, POST")
        case (.file(let source, let name), "GET"):
            return sendRecording(wsi, source: source, name: name)
        case (.file, _):
            return methodNotAllowed(wsi, RecordingRoute.root + "/SOURCE/NAME", allow: "GET")
        case (.stop(let name), "POST"):
            if options.readOnly { return hubError(wsi, InspectorHub.recordingReadOnlyError) }
            return beginOptionalBody(wsi, request, for: .recordingStop(name: name))
        case (.stop, _):
            return methodNotAllowed(wsi, RecordingRoute.root + "/recordings/NAME/stop", allow: "POST")
        case (.unknown, _):
            return LwsResponse.error(
                wsi, status: 404, code: "not_found",
                message: "no endpoint \(method) under \(RecordingRoute.root): use \(RecordingRoute.root), "
                    + "\(RecordingRoute.root)/SOURCE/NAME or \(RecordingRoute.root)/recordings/NAME/stop")
        }
    }

    /// `POST /api/recordings`, its body (if any) in: the recording's options. Answers 201 `{"recording": status}`.
    func startRecording(_ wsi: OpaquePointer, _ body: [UInt8]) -> Int32 {
        do throws(HubError) {
            let status = try hub.startRecording(try RecordingRequest(jsonObject: try jsonBody(body) ?? .emptyObject))
            return LwsResponse.json(
                wsi, StoreValue.object(["recording": status]).jsonBytes(sortedKeys: true), status: 201)
        } catch {
            return hubError(wsi, error)
        }
    }

    /// `POST /api/recordings/recordings/<name>/stop`, its body (if any) in: empty or `{}`. Answers
    /// `{"recording": status}`.
    func stopRecording(_ wsi: OpaquePointer, name: String, _ body: [UInt8]) -> Int32 {
        do throws(HubError) {
            if let parsed = try jsonBody(body), parsed != .emptyObject {
                throw .badRequest("POST \(RecordingRoute.root)/recordings/NAME/stop takes no body, or {}")
            }
            let status = try hub.stopRecording(name: name)
            return LwsResponse.json(wsi, StoreValue.object(["recording": status]).jsonBytes(sortedKeys: true))
        } catch {
            return hubError(wsi, error)
        }
    }

    /// `GET /api/recordings/<source>/<name>`: the file, streamed by lws from disk (never read whole), as
    /// `application/x-ndjson`.
    private func sendRecording(_ wsi: OpaquePointer, source: String, name: String) -> Int32 {
        let url: URL
        do {
            url = try hub.recordingFile(source: source, name: name)
        } catch {
            return hubError(wsi, error)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
            FileManager.default.isReadableFile(atPath: url.path)
        else {
            return LwsResponse.error(
                wsi, status: 404, code: HubError.Code.notFound.rawValue,
                message: "the recording \(source)/\(name) has no readable file (it may have been deleted)")
        }
        // One request per connection, as for every response (see LwsResponse.send).
        var extra = "cache-control: no-store\r\nconnection: close\r\n"
        if Self.isPlainFileName(name) { extra += "content-disposition: attachment; filename=\"\(name)\"\r\n" }
        let result = lws_serve_http_file(wsi, url.path, "application/x-ndjson", extra, Int32(extra.utf8.count))
        return result == 0 ? 0 : -1
    }

    /// Whether `name` is `[A-Za-z0-9._-]+` (safe inside a quoted header parameter).
    private static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar) || scalar == "." || scalar == "_" || scalar == "-")
            }
    }
}
