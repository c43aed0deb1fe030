public import Foundation
import KeyscopeCodec
public import KeyscopeCore
public import KeyscopeInspector
public import KeyscopeProtocol
public import Logging
import Synchronization

/// The recordings an inspector serves (``KeyscopeInspector/RecordingsEndpoint``, docs/recording.md "HTTP"): this
/// process's recordings folder, where `POST /api/recordings` records the hub, and folders of recordings it offers
/// (the package's fixtures).
///
/// ```swift
/// let library = RecordingLibrary(
///     folder: URL(fileURLWithPath: "/var/tmp/shop/recordings"),
///     offered: [URL(fileURLWithPath: "fixtures/recordings")])
/// let inspector = try Inspector.start(features: [RecordingsFeature(library)])
/// // at shutdown, so that every file ends cleanly:
/// library.stopAll()
/// ```
/// - The hub to record comes with each `start` (the hub hands itself over), so the library keeps none: it can be
///   made before its hub, and a stopped inspector's hub is freed with it.
/// - Sources: `recordings` is the folder (made, `0700`, on the first recording), `fixtures` the offered folders
///   (the first that has a name wins).
/// - Names are checked strictly (``RecordingName``): anything else, and a symlink that leads out of its folder,
///   is `not_found`.
/// - `active` lists the recordings this library started, newest first: those in progress and (up to
///   ``keptEnded``) those that ended, so that a client sees why one ended.
public final class RecordingLibrary: RecordingsEndpoint {
    /// The source name of ``folder``.
    public static let ownSource = "recordings"
    /// The source name of ``offered``.
    public static let offeredSource = "fixtures"
    /// How many ended recordings `active` keeps listing.
    public static let keptEnded = 50

    /// Where this process's recordings go.
    public let folder: URL
    /// Folders of recordings offered for loading.
    public let offered: [URL]
    /// What every recording started here uses, before the request's bounds and muting (its `source`, its poll
    /// interval).
    public let defaults: HubRecorder.Options
    /// Where a recording started here that ends for a failure says so (``HubRecorder``'s logger).
    public let logger: Logger
    /// What recordings started here may cost: how many at once, how long, how large, the folder's total.
    public let limits: Limits

    /// The recorders started here, oldest first.
    private let recorders = Mutex<[HubRecorder]>([])

    public init(
        folder: URL, offered: [URL] = [], defaults: HubRecorder.Options = .init(), limits: Limits = .init(),
        logger: Logger = Logger(label: "keyscope.recording")
    ) {
        self.folder = folder
        self.offered = offered
        self.defaults = defaults
        self.limits = limits
        self.logger = logger
    }

    // MARK: RecordingsEndpoint

    public func listing() -> StoreValue {
        var seen: Set<String> = []
        var files: [(id: String, source: String, name: String, bytes: Int, modified: Date)] = []
        for (source, directory) in sources() {
            for (name, attributes) in Self.recordings(in: directory) where seen.insert(source + "/" + name).inserted {
                files.append((source + "/" + name, source, name, attributes.bytes, attributes.modified))
            }
        }
        files.sort { $0.modified != $1.modified ? $0.modified > $1.modified : $0.id < $1.id }
        return .object([
            "recordings": .array(
                files.map { file in
                    .object([
                        "id": .string(file.id), "source": .string(file.source), "name": .string(file.name),
                        "bytes": .integer(Int64(file.bytes)),
                        "modified": .string((LogTime(file.modified) ?? .now).rfc3339),
                    ])
                }),
            "active": .array(recorders.withLock { $0 }.reversed().map { Self.json($0.status, of: $0) }),
        ])
    }

    public func file(source: String, name: String) throws(HubError) -> URL {
        guard RecordingName.isValid(name) else { throw Self.notFound(source, name) }
        for (candidate, directory) in sources() where candidate == source {
            if let url = Self.resolved(name, in: directory)?.url { return url }
        }
        throw Self.notFound(source, name)
    }

    /// Starts recording `hub` (this process): ``start(_:feed:)`` with its ``HubFeed``.
    public func start(_ request: RecordingRequest, hub: InspectorHub) throws(HubError) -> StoreValue {
        try start(request) { HubFeed(hub: hub) }
    }

    public func start(_ request: RecordingRequest, feed: @Sendable () -> any RecorderFeed) throws(HubError)
        -> StoreValue
    {
        let mute: MuteRules
        do throws(RecordingError) {
            mute = try MuteRules(patterns: request.mutedPaths, stores: request.mutedStores)
        } catch {
            throw HubError(code: .badPath, message: error.message)
        }
        if let name = request.name, !RecordingName.isValid(name) {
            throw .badRequest(
                "\"name\": \"\(name)\" is not a recording name: one file name of letters, digits, '.', '_' and '-', "
                    + "ending in .kslog, without \"..\"")
        }
        let bounds = try bounds(of: request)
        var options = defaults
        options.duration = bounds.duration
        options.maxBytes = bounds.maxBytes
        options.mute = mute
        options.overwrite = false
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .badRequest("the recordings folder \(folder.path) cannot be made: \(error.localizedDescription)")
        }
        // Choosing the name and starting happen under the lock, so that two requests never pick the same name.
        let recorder = try recorders.withLock { (recorders: inout [HubRecorder]) throws(HubError) -> HubRecorder in
            let name: String
            if let given = request.name { name = given } else { name = try freeName(among: recorders) }
            if recorders.contains(where: { $0.url.lastPathComponent == name }) {
                throw .badRequest("a recording named \(name) was already made by this process; choose another name")
            }
            try checkRoom(for: bounds.maxBytes, among: recorders)
            let recorder: HubRecorder
            do throws(RecordingError) {
                recorder = try HubRecorder(
                    feed: feed(), to: folder.appendingPathComponent(name), options: options, logger: logger)
            } catch {
                throw .badRequest(error.message)
            }
            recorders.append(recorder)
            Self.trim(&recorders)
            return recorder
        }
        return Self.json(recorder.status, of: recorder)
    }

    public func stop(name: String) throws(HubError) -> StoreValue {
        let recorder = recorders.withLock { $0.last(where: { $0.url.lastPathComponent == name }) }
        guard let recorder else {
            throw HubError(code: .notFound, message: "no recording named \"\(name)\" was made by this process")
        }
        return Self.json(recorder.stop(), of: recorder)
    }

    // MARK: More

    /// Every recording started here, newest first (see the type's notes for which ended ones are kept).
    public func statuses() -> [HubRecorder.Status] {
        recorders.withLock { $0 }.reversed().map(\.status)
    }

    /// Stops every recording in progress (each after writing everything up to now), for a clean shutdown.
    public func stopAll() {
        for recorder in recorders.withLock({ $0 }) { recorder.stop() }
    }

    /// The sources in lookup order: the own folder, then each offered one.
    private func sources() -> [(String, URL)] {
        [(Self.ownSource, folder)] + offered.map { (Self.offeredSource, $0) }
    }

    /// A name from the time that neither a file nor a recorder has.
    private func freeName(among recorders: [HubRecorder]) throws(HubError) -> String {
        let now = LogTime.now
        for suffix in [nil] + (2...99).map(Optional.some) {
            let name = RecordingName.timestamped(now, suffix: suffix)
            let path = folder.appendingPathComponent(name).path
            if !FileManager.default.fileExists(atPath: path), !recorders.contains(where: { $0.status.name == name }) {
                return name
            }
        }
        throw .badRequest("no free recording name for this second; give one with \"name\"")
    }

    /// Drops the oldest ended recorders beyond ``keptEnded``.
    private static func trim(_ recorders: inout [HubRecorder]) {
        var ended = recorders.filter { $0.status.state == .ended }.count
        recorders.removeAll { recorder in
            guard ended > keptEnded, recorder.status.state == .ended else { return false }
            ended -= 1
            return true
        }
    }

    /// The status object, with the recording's bounds (`maxBytes`, `durationSeconds`; `null` for none).
    private static func json(_ status: HubRecorder.Status, of recorder: HubRecorder) -> StoreValue {
        guard case .object(var members) = status.jsonObject(id: ownSource + "/" + status.name) else { return .null }
        members["maxBytes"] = recorder.options.maxBytes.map { .integer(Int64($0)) } ?? .null
        members["durationSeconds"] =
            recorder.options.duration.map {
                .number(Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18)
            }
            ?? .null
        return .object(members)
    }

    private static func notFound(_ source: String, _ name: String) -> HubError {
        HubError(code: .notFound, message: "no recording \(source)/\(name)")
    }
}
