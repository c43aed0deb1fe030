import Foundation
public import KeyscopeCore
public import KeyscopeInspector
public import KeyscopeProtocol

/// What ``RecordingsFeature`` serves.
extension RecordingsFeature {
    static let root = "/api/recordings"

    public var routes: [FeatureRoute] {
        let refusal = Self.readOnlyRefusal(link.current?.options.readOnlyReason)
        return [
            FeatureRoute(.get, Self.root) { [unowned self] _ throws(HubError) in .json(try listing()) },
            FeatureRoute(.post, Self.root, body: .optionalJSON, writes: true, readOnlyRefusal: refusal) {
                [unowned self] request throws(HubError) in
                let status = try start(
                    try RecordingRequest(jsonObject: request.body ?? .emptyObject), query: request.query)
                return .json(.object(["recording": status]), status: 201)
            },
            FeatureRoute(.get, Self.root + "/:source/:name") { [unowned self] request throws(HubError) in
                try download(source: request.rest[0], name: request.rest[1])
            },
            FeatureRoute(
                .post, Self.root + "/recordings/:name/stop", body: .optionalJSON, writes: true,
                readOnlyRefusal: refusal
            ) { [unowned self] request throws(HubError) in
                if let body = request.body, body != .emptyObject {
                    throw .badRequest("POST \(Self.root)/recordings/NAME/stop takes no body, or {}")
                }
                return .json(.object(["recording": try stop(name: request.rest[0])]))
            },
        ]
    }

    /// `GET /api/recordings/<source>/<name>`: the file, streamed from disk, as `application/x-ndjson`.
    private func download(source: String, name: String) throws(HubError) -> FeatureRoute.Response {
        let url = try file(source: source, name: name)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
            FileManager.default.isReadableFile(atPath: url.path)
        else {
            throw HubError(
                code: .notFound,
                message: "the recording \(source)/\(name) has no readable file (it may have been deleted)")
        }
        let headers = RecordingName.isValid(name) ? ["Content-Disposition": "attachment; filename=\"\(name)\""] : [:]
        return .file(url, contentType: "application/x-ndjson", headers: headers)
    }
}
