public import Foundation
public import KeyscopeCore
public import KeyscopeInspector
public import KeyscopeProtocol

/// What a client asks for when it starts a recording in the inspected process (`POST /api/recordings`, the
/// dashboard's Record button): bounds, muted paths and stores, and an optional file name.
///
/// ```swift
/// let request = try RecordingRequest(jsonObject: ["durationSeconds": 60, "mute": ["user.card"]])
/// ```
public struct RecordingRequest: Sendable, Hashable {
    /// Stop after this long; `nil` records until stopped.
    public var duration: Duration?
    /// Stop before the file would exceed this many bytes (the header counts); `nil` for no bound.
    public var maxBytes: Int?
    /// Key path patterns whose values are replaced by a placeholder in every store (`*` matches one segment;
    /// docs/recording.md "Muting").
    public var mutedPaths: [String]
    /// Stores left out of the recording entirely.
    public var mutedStores: [StoreID]
    /// The file's name in the recordings folder (`[A-Za-z0-9._-]`, ending in `.kslog`); `nil` picks one from the
    /// time.
    public var name: String?

    public init(
        duration: Duration? = nil, maxBytes: Int? = nil, mutedPaths: [String] = [], mutedStores: [StoreID] = [],
        name: String? = nil
    ) {
        self.duration = duration
        self.maxBytes = maxBytes
        self.mutedPaths = mutedPaths
        self.mutedStores = mutedStores
        self.name = name
    }

    /// Reads the JSON body of `POST /api/recordings`: `{"durationSeconds": 60, "maxBytes": 1048576, "mute":
    /// ["user.card"], "muteStores": ["app/backend"], "name": "bug-1234.kslog"}`, every member optional.
    ///
    /// - Throws: `bad_request` naming the member that has the wrong type or range.
    public init(jsonObject value: StoreValue) throws(HubError) {
        guard case .object(let members) = value else { throw .badRequest("the body must be a JSON object") }
        self.init()
        switch members["durationSeconds"] {
        case nil, .null?: break
        case .integer(let seconds)? where seconds > 0: duration = .seconds(seconds)
        case .number(let seconds)? where seconds > 0 && seconds.isFinite:
            duration = .milliseconds(Int64(seconds * 1000))
        default: throw .badRequest("\"durationSeconds\" must be a positive number of seconds")
        }
        switch members["maxBytes"] {
        case nil, .null?: break
        case .integer(let bytes)? where bytes > 0: maxBytes = Int(bytes)
        default: throw .badRequest("\"maxBytes\" must be a positive integer")
        }
        mutedPaths = try Self.strings(members["mute"], "mute")
        for text in try Self.strings(members["muteStores"], "muteStores") {
            guard let id = StoreID(text) else { throw .badRequest("\"muteStores\": \"\(text)\" is not a store id") }
            mutedStores.append(id)
        }
        switch members["name"] {
        case nil, .null?: break
        case .string(let text)?: name = text
        default: throw .badRequest("\"name\" must be a string")
        }
    }

    private static func strings(_ value: StoreValue?, _ member: String) throws(HubError) -> [String] {
        guard let value, value != .null else { return [] }
        guard case .array(let elements) = value else { throw .badRequest("\"\(member)\" must be an array of strings") }
        var strings: [String] = []
        for element in elements {
            guard case .string(let text) = element else {
                throw .badRequest("\"\(member)\" must be an array of strings")
            }
            strings.append(text)
        }
        return strings
    }
}

/// What the inspector needs from recording (KeyscopeRecording provides it): the recordings a client may list and
/// download (the process's own and the fixtures it offers), and starting and stopping a recording of this process
/// into its recordings folder. Wire shapes: docs/recording.md "HTTP".
///
/// The hub calls these from client requests (`/api/recordings…`), handing itself to those that need it: an endpoint
/// keeps no hub, so it can be made before the hub (`RecordingsFeature(endpoint)`) and attaching it makes no cycle.
/// A read-only hub refuses a client's start and stop (`read_only`) before calling these: a recording writes a file.
public protocol RecordingsEndpoint: AnyObject, Sendable {
    /// `GET /api/recordings`: `{"recordings": [{"id", "source", "name", "bytes", "modified"}], "active": [status…]}`.
    func listing() -> StoreValue

    /// The file behind `GET /api/recordings/<source>/<name>`. `not_found` when there is no such recording (or the
    /// name is not a plain `*.kslog` file name).
    func file(source: String, name: String) throws(HubError) -> URL

    /// Starts recording what `feed` makes (`POST /api/recordings`: this process's hub, ``HubFeed``, or on a fleet
    /// dashboard an instance's mirror) and returns its status object; `feed` is called once, when the recording
    /// starts. `bad_request` or `bad_path` for a request that cannot be honoured (a bad mute pattern, a name in use).
    func start(_ request: RecordingRequest, feed: @Sendable () -> any RecorderFeed) throws(HubError) -> StoreValue

    /// Stops the recording `name` (`POST /api/recordings/recordings/<name>/stop`) once everything up to now is
    /// written and flushed, and returns its final status. `not_found` when no recording of that name is active or
    /// finished in this process.
    func stop(name: String) throws(HubError) -> StoreValue
}
