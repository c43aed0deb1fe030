import Foundation
import KeyscopeCodec
import KeyscopeCore
import KeyscopeInspector
import KeyscopeLws
import KeyscopeProtocol

/// The server's own routes (features bring the rest): `GET /api/health`, `GET /api/snapshot`, `POST /api/request`
/// and `POST /api/rewind`.
extension ServerCore {
    func builtInRoutes() -> [ServerRoute] {
        [
            ServerRoute(.get, "/api/health", inline: true) { _ in
                .bytes(Array(#"{"ok":true,"protocol":\#(InspectorProtocol.version)}"#.utf8), status: 200)
            },
            ServerRoute(.get, "/api/snapshot") { [unowned self] _ in .bytes(hub.snapshot().messageBytes(), status: 200)
            },
            // One protocol request; its reply's status follows its error. Read-only writes are refused by the
            // executor, which reads the request's type first (a resync is not a write).
            ServerRoute(.post, "/api/request", body: .bytes) { [unowned self] call in
                let heavy = call.bytes.count > Self.heavyRequestBytes
                let outcome = executor.execute(call.bytes, decoded: heavy ? FreedBlocks.merge : {})
                return .bytes(outcome.reply, status: outcome.error?.code.httpStatus ?? 200)
            },
            ServerRoute(.post, "/api/rewind", body: .json, writes: true) { [unowned self] call in
                do throws(HubError) {
                    return .json(try rewind(call.json).jsonObject, status: 200)
                } catch {
                    return .error(error)
                }
            },
        ]
    }

    /// `POST /api/rewind` (docs/recording.md "Rewind"), its body in: `{"seq": N}`.
    private func rewind(_ body: StoreValue?) throws(HubError) -> RewindResult {
        guard let body else {
            throw .badRequest(
                "the body is empty; send {\"seq\": N} with the seq to rewind to (Content-Type: application/json)")
        }
        guard case .object(let members) = body else {
            throw .badRequest("the body must be a JSON object {\"seq\": N}, not \(body.typeName)")
        }
        return try hub.rewind(toSeq: try ClientRequest.rewindSeq(members["seq"]))
    }

    /// Whether the request announces a body: a `Content-Length` other than 0, or a `Transfer-Encoding`.
    static func hasBody(_ request: LwsRequest) -> Bool {
        if let length = request.value(.contentLength) {
            return Int(length.trimmingJSONSpace) != 0
        }
        return request.value(.transferEncoding) != nil
    }

    /// The JSON of a body; `nil` when it is empty (or only white space). Invalid JSON is `bad_json`. Called on the
    /// worker's threads.
    static func jsonBody(_ body: [UInt8], maxDepth: Int) throws(HubError) -> StoreValue? {
        guard body.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else { return nil }
        do {
            return try JanssonCodec.decode(body, maxDepth: maxDepth)
        } catch {
            throw HubError(code: .badJSON, message: "the body is not valid JSON: \(error)")
        }
    }

    /// A file a route answers with, streamed by lws from disk (never read whole).
    func sendFile(_ wsi: LwsConnection, path: String, contentType: String, headers: [String: String]) -> Int32 {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            FileManager.default.isReadableFile(atPath: path)
        else {
            return LwsResponse.error(
                wsi, status: 404, code: HubError.Code.notFound.rawValue,
                message: "the file is gone or unreadable (it may have been deleted)")
        }
        // One request per connection, as for every response (see LwsResponse.send).
        var extra = "cache-control: no-store\r\nconnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { extra += "\(name.lowercased()): \(value)\r\n" }
        return wsi.serveFile(path, contentType: contentType, extraHeaders: extra) ? 0 : -1
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingJSONSpace: Substring {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}
