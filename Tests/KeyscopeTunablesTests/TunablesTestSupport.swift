import Foundation
import InMemoryLogging
import KeyscopeCore
import KeyscopeTunables
import Logging
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every suite of this target runs one test at a time: the watcher tests count the process's inotify descriptors,
/// and the live-reload tests wait on the file system, which other tests' bursts of I/O would only slow down.
@Suite(.serialized) struct TunablesTests {}

/// A fresh temporary directory with a bundled-defaults folder (`bundle/`) and a data folder (`data/`), removed
/// when released.
final class Sandbox {
    let root: URL
    var bundle: URL { root.appendingPathComponent("bundle") }
    var defaultsURL: URL { bundle.appendingPathComponent("live-constants.json") }
    var schemaURL: URL { bundle.appendingPathComponent("live-constants.schema.json") }
    var fileURL: URL { root.appendingPathComponent("data/app/live-constants.json") }
    let logs = InMemoryLogHandler()
    let registry = StoreRegistry()

    init(defaults: StoreValue? = nil, schema: StoreValue? = nil) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("keyscope-tunables-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        if let defaults { try write(defaults, to: defaultsURL) }
        if let schema { try write(schema, to: schemaURL) }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    var logger: Logger { Logger(label: "test", factory: { [logs] _ in logs }) }

    /// Tunables on this sandbox's files, with its own registry and logger.
    func open(
        watching: Tunables.Watching = .off, schemaURL: URL? = nil, registry: StoreRegistry? = nil
    ) throws(TunablesError) -> Tunables {
        try Tunables(
            defaultsURL: defaultsURL, fileURL: fileURL, schemaURL: schemaURL, registry: registry ?? self.registry,
            watching: watching, logger: logger)
    }

    /// The writable copy as a value.
    func fileValue() throws -> StoreValue { try StoreValue(jsonData: Data(contentsOf: fileURL)) }

    /// The error-level lines logged so far.
    var errorLines: [InMemoryLogHandler.Entry] { logs.entries.filter { $0.level == .error } }
}

func write(_ value: StoreValue, to url: URL) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try value.jsonData(pretty: true).write(to: url)
}

/// Writes `text` the way editors that save by rename do: a temporary file beside the target, renamed over it.
func writeByRename(_ text: String, to url: URL) throws {
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).swp")
    try Data(text.utf8).write(to: temporary)
    #expect(rename(temporary.path, url.path) == 0)
}

/// Writes `text` into the existing file itself (same inode): truncate, write, close.
func writeInPlace(_ text: String, to url: URL) throws {
    let before = try inode(url)
    let handle = try FileHandle(forWritingTo: url)
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data(text.utf8))
    try handle.close()
    #expect(try inode(url) == before, "an in-place write keeps the inode")
}

func inode(_ url: URL) throws -> UInt64 {
    var info = stat()
    guard stat(url.path, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
    return UInt64(info.st_ino)
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes; whether it held. The timeout is generous: it
/// bounds a failing test, it is not what a passing one waits.
func eventually(timeout: Duration = .seconds(10), _ condition: () throws -> Bool) rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return try condition()
}

/// The changes a registry's stores make, as the inspector hears them.
final class ChangeLog: Sendable {
    private final class Box: Sendable {
        let changes = Mutex<[StoreChange]>([])
    }

    private let box: Box
    private let token: ObservationToken

    init(_ registry: StoreRegistry) {
        let box = Box()
        self.box = box
        token = registry.observe { activity in
            if case .changed(let change) = activity { box.changes.withLock { $0.append(change) } }
        }
    }

    var all: [StoreChange] { box.changes.withLock { $0 } }
}

/// A thread-safe list of what subscribers heard.
final class Heard<Value: Sendable>: Sendable {
    private let items = Mutex<[Value]>([])
    func append(_ value: Value) { items.withLock { $0.append(value) } }
    var values: [Value] { items.withLock { $0 } }
}

/// How many inotify descriptors this process has open (Linux; 0 elsewhere).
func openInotifyDescriptors() -> Int {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return 0 }
    return names.filter { name in
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)) == "anon_inode:inotify"
    }.count
}
