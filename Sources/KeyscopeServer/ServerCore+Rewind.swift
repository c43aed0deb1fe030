import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol

/// `POST /api/rewind` (docs/recording.md "Rewind"): the HTTP form of the WebSocket `rewind` request.
extension ServerCore {
    /// The path of the rewind endpoint.
    static let rewindPath = "/api/rewind"

    /// `POST /api/rewind`, its body in: `{"seq": N}`. Answers 200 with the result
    /// (`{"seq":…,"changes":…,"stores":[…],"skipped":[…]}`); a read-only server refused it before the body came.
    func rewindBodyCompleted(_ wsi: OpaquePointer, _ body: [UInt8]) -> Int32 {
        do throws(HubError) {
            guard let parsed = try jsonBody(body) else {
                throw .badRequest(
                    "the body is empty; send {\"seq\": N} with the seq to rewind to (Content-Type: application/json)")
            }
            guard case .object(let members) = parsed else {
                throw .badRequest("the body must be a JSON object {\"seq\": N}, not \(parsed.typeName)")
            }
            let seq = try ClientRequest.rewindSeq(members["seq"])
            return LwsResponse.json(wsi, try hub.rewind(toSeq: seq).jsonObject.jsonBytes(sortedKeys: true))
        } catch {
            return hubError(wsi, error)
        }
    }
}
