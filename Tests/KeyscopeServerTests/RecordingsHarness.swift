import Foundation
import KeyscopeClient
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import KeyscopeRecording
import Synchronization

@testable import KeyscopeServer

/// A test double of KeyscopeRecording's endpoint over a temporary folder with `recordings/` and `fixtures/`: it
/// lists the `*.kslog` files there, serves them by name, and "records" by making a file and a status. Every name it
/// is asked for is kept (``asked``), so that a test sees what the server passed on.
///
/// ```swift
/// let recordings = try FakeRecordings(fixtures: ["checkout.kslog": Array("{}\n".utf8)])
/// hub.recordingsFeature.endpoint = recordings
/// ```
/// Its rules, close to the real ones: a source other than `recordings` or `fixtures`, or a name that is not
/// `[A-Za-z0-9._-]+` ending in `.kslog` (or whose file is absent), is `not_found`; starting with a name in use is
/// `bad_request`; stopping a recording it did not start is `not_found`.
final class FakeRecordings: RecordingsEndpoint {
    let folder: URL
    private let askedNames = Mutex<[String]>([])
    private let started = Mutex<[String: (request: RecordingRequest, ended: Bool)]>([:])
    /// When set, ``file(source:name:)`` answers this URL for every name (a file that may not exist).
    let fixedURL = Mutex<URL?>(nil)

    init(fixtures: [String: [UInt8]] = [:], recordings: [String: [UInt8]] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("keyscope-recordings-\(UUID())")
        for (source, files) in [("fixtures", fixtures), ("recordings", recordings)] {
            let directory = folder.appendingPathComponent(source)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (name, bytes) in files {
                try Data(bytes).write(to: directory.appendingPathComponent(name))
            }
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Every `source/name` that ``file(source:name:)`` was asked for, in order.
    var asked: [String] { askedNames.withLock { $0 } }

    /// The request a recording was started with.
    func request(named name: String) -> RecordingRequest? { started.withLock { $0[name]?.request } }

    static func isRecordingName(_ name: String) -> Bool {
        name.hasSuffix(".kslog") && name.count > 6
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0))
            }
    }

    func status(_ name: String) -> StoreValue {
        let ended = started.withLock { $0[name]?.ended ?? false }
        return [
            "id": .string("recordings/" + name), "name": .string(name), "state": ended ? "ended" : "recording",
            "events": 0, "bytes": 0, "startedAt": "2026-11-21T10:00:00.000000Z",
            "endedAt": ended ? "2026-11-21T10:00:01.000000Z" : .null, "endReason": ended ? "stopped" : .null,
            "message": .null,
        ]
    }

    // MARK: RecordingsEndpoint

    func listing() -> StoreValue {
        var items: [StoreValue] = []
        for source in ["fixtures", "recordings"] {
            let directory = folder.appendingPathComponent(source)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() where Self.isRecordingName(name) {
                let size =
                    (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path))?[
                        .size] as? Int ?? 0
                items.append([
                    "id": .string("\(source)/\(name)"), "source": .string(source), "name": .string(name),
                    "bytes": .integer(Int64(size)), "modified": "2026-11-21T10:00:00.000000Z",
                ])
            }
        }
        let active = started.withLock { $0.filter { !$0.value.ended }.keys.sorted() }
        return ["recordings": .array(items), "active": .array(active.map(status))]
    }

    func file(source: String, name: String) throws(HubError) -> URL {
        askedNames.withLock { $0.append("\(source)/\(name)") }
        if let fixed = fixedURL.withLock({ $0 }) { return fixed }
        let url = folder.appendingPathComponent(source).appendingPathComponent(name)
        guard ["recordings", "fixtures"].contains(source), Self.isRecordingName(name),
            FileManager.default.fileExists(atPath: url.path)
        else {
            throw HubError(code: .notFound, message: "no recording \(source)/\(name)")
        }
        return url
    }

    func start(_ request: RecordingRequest, feed: @Sendable () -> any RecorderFeed) throws(HubError) -> StoreValue {
        let name = request.name ?? "recording-\(started.withLock { $0.count } + 1).kslog"
        guard Self.isRecordingName(name) else { throw .badRequest("\"\(name)\" is not a recording name") }
        let fresh = started.withLock { started -> Bool in
            guard started[name] == nil else { return false }
            started[name] = (request, false)
            return true
        }
        guard fresh else { throw .badRequest("a recording named \(name) exists already") }
        let url = folder.appendingPathComponent("recordings").appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: Data("{\"format\":\"kslog\"}\n".utf8))
        return status(name)
    }

    func stop(name: String) throws(HubError) -> StoreValue {
        let found = started.withLock { started -> Bool in
            guard started[name] != nil else { return false }
            started[name]?.ended = true
            return true
        }
        guard found else { throw HubError(code: .notFound, message: "no recording \(name) in this process") }
        return status(name)
    }
}

/// A real server on a free loopback port (a ``TuneHarness`` without tunables) whose hub has a ``FakeRecordings``
/// (or none).
struct RecordingsHarness {
    let base: TuneHarness
    let recordings: FakeRecordings?

    init(
        recordings: FakeRecordings? = nil, withRecordings: Bool = true,
        configure: (inout ServerOptions) -> Void = { _ in }
    ) throws {
        base = try TuneHarness(withTunables: false, configure: configure)
        self.recordings = withRecordings ? try recordings ?? FakeRecordings() : nil
        base.hub.recordingsFeature.endpoint = self.recordings
    }

    func stop() { base.stop() }

    var hub: InspectorHub { base.hub }

    func call(
        _ method: String, _ target: String, body: String? = nil, contentType: String = "application/json",
        token: String? = nil
    ) throws -> (status: Int, json: StoreValue?, response: HTTPResponse) {
        try base.call(method, target, body: body, contentType: contentType, token: token)
    }
}
