import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import KeyscopeServer
import KeyscopeTesting
import KeyscopeTunables
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `keyscope tune get|set|pull|watch`, the built binary, against a real server in this process whose tunables are
/// a small test double over a real store.
@Suite("keyscope tune", .serialized)
struct TuneCommandTests {
    /// Tunables in a memory store: `height` takes integers 0…200, every other known key anything.
    final class Tunables: TunablesEndpoint {
        let store = KeyValueStore(
            id: StoreID(scope: .scenario(id: "tunables"), storage: .memory),
            root: ["height": 48, "title": "Cart", "accent": .color(StoreColor("#FF8800")!)])
        static let keys: Set<String> = ["height", "title", "accent", "greeting", "ratio"]

        var storeID: StoreID { store.id }
        func currentValues() -> [String: StoreValue] { store.snapshot().objectValue ?? [:] }
        func validate(key: String, value: StoreValue) throws(HubError) {
            guard Self.keys.contains(key) else { throw HubError(code: .unknownKey, message: "no tunable \"\(key)\"") }
            guard key == "height" else { return }
            guard case .integer(let height) = value else {
                throw HubError(code: .typeMismatch, message: "height takes an integer, not \(value.typeName)")
            }
            guard (0...200).contains(height) else {
                throw HubError(code: .outOfRange, message: "height must be within 0...200, not \(height)")
            }
        }
        func validateReplacement(_ values: [String: StoreValue]) throws(HubError) {
            for (key, value) in values { try validate(key: key, value: value) }
        }
        func panelDescription() -> StoreValue { ["values": .object(currentValues())] }
    }

    /// A started server with ``Tunables`` and the arguments that point the CLI at it.
    struct Service {
        let tunables = Tunables()
        let server: InspectorServer
        let arguments: [String]

        init() throws {
            let hub = InspectorHub(registry: StoreRegistry(), features: [TunablesFeature(tunables)])
            try hub.registry.register(tunables.store)
            var options = ServerOptions()
            options.port = 0
            options.writesServerRecord = false
            server = InspectorServer(hub: hub, options: options)
            try server.start()
            arguments = ["--url", "http://127.0.0.1:\(server.port ?? 0)", "--token", server.token ?? ""]
        }

        var values: [String: StoreValue] { tunables.currentValues() }
    }

    let keyscope: ChildProcess

    init() throws { keyscope = try ChildProcess(product: "keyscope") }

    func run(_ arguments: [String]) throws -> ChildProcess.Outcome {
        try keyscope.run(arguments, environment: ["HOME": NSTemporaryDirectory()], timeout: .seconds(60))
    }

    static func temporaryDirectory() throws -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("keyscope-tune-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Waits until `condition` holds, up to `timeout`.
    static func eventually(_ timeout: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    @Test("get prints every tunable as sorted JSON, or one value; an unknown key is exit 1")
    func get() throws {
        let service = try Service()
        defer { service.server.stop() }
        let all = try run(["tune", "get"] + service.arguments)
        #expect(all.succeeded, "\(all)")
        #expect(all.stdout == String(decoding: StoreValue.object(service.values).jsonData(pretty: true), as: UTF8.self))
        let one = try run(["tune", "get", "accent"] + service.arguments)
        #expect(one.stdout == ##"{"$color":"#FF8800"}"## + "\n")
        let missing = try run(["tune", "get", "nope"] + service.arguments)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no tunable \"nope\""), "\(missing)")
        #expect(missing.stderr.contains("accent, height, title"))
    }

    @Test("set sends any text as one segment and prints the stored value; refusals are error: CODE: MESSAGE")
    func set() throws {
        let service = try Service()
        defer { service.server.stop() }
        let height = try run(["tune", "set", "height", "64"] + service.arguments)
        #expect(height.succeeded, "\(height)")
        #expect(height.stdout.wholeMatch(of: /height = 64 \(seq \d+\)\n/) != nil, "\(height.stdout)")
        #expect(service.values["height"] == 64)
        let greeting = try run(["tune", "set", "greeting", "Hello, a/b c?d=1&e #2 %41"] + service.arguments)
        #expect(greeting.succeeded, "\(greeting)")
        #expect(service.values["greeting"] == "Hello, a/b c?d=1&e #2 %41")
        _ = try run(["tune", "set", "ratio", "2.5"] + service.arguments)
        #expect(service.values["ratio"] == 2.5)
        let refused = try run(["tune", "set", "height", "999"] + service.arguments)
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("error: out_of_range: height must be within 0...200"), "\(refused)")
        let unauthorized = try run([
            "tune", "set", "height", "1", "--url", service.arguments[1], "--token", "wrong-token-0123456789",
        ])
        #expect(unauthorized.status == 1)
        #expect(unauthorized.stderr.hasPrefix("error: unauthorized: "), "\(unauthorized)")
        #expect(service.values["height"] == 64)
    }

    @Test("pull writes sorted, stable JSON atomically and says how many tunables it wrote")
    func pull() throws {
        let service = try Service()
        defer { service.server.stop() }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("live-constants.json")
        let first = try run(["tune", "pull", file.path] + service.arguments)
        #expect(first.succeeded, "\(first)")
        #expect(first.stdout == "wrote 3 tunables to \(file.path)\n")
        let written = try Data(contentsOf: file)
        #expect(
            String(decoding: written, as: UTF8.self)
                == "{\n  \"accent\": {\"$color\": \"#FF8800\"},\n  \"height\": 48,\n  \"title\": \"Cart\"\n}\n")
        _ = try run(["tune", "pull", file.path] + service.arguments)
        #expect(try Data(contentsOf: file) == written, "the same values give the same bytes")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(leftovers == ["live-constants.json"], "no temporary file left behind")
    }

    @Test("watch pushes at start and on every save (also temp + rename), survives bad JSON, stops on SIGINT")
    func watch() throws {
        let service = try Service()
        defer { service.server.stop() }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("live-constants.json")
        try Data(#"{"height": 50, "title": "Cart"}"#.utf8).write(to: file)
        let watcher = try keyscope.start(["tune", "watch", file.path] + service.arguments)
        defer { watcher.kill() }
        let first = try watcher.nextLine(timeout: .seconds(30))
        #expect(first?.hasPrefix("pushed 2 tunables (seq ") == true, "\(first ?? "nothing")")
        #expect(service.values == ["height": 50, "title": "Cart"], "keys left out of the file are removed")

        // An ordinary save: written in place.
        try Data(#"{"height": 60, "title": "Cart"}"#.utf8).write(to: file)
        #expect(Self.eventually { service.values["height"] == 60 })
        #expect(try watcher.nextLine(timeout: .seconds(10))?.hasPrefix("pushed 2 tunables") == true)

        // An editor's save: a temporary file renamed over the watched one.
        let temporary = directory.appendingPathComponent(".live-constants.json.swp")
        try Data(#"{"height": 70, "title": "Basket"}"#.utf8).write(to: temporary)
        #expect(rename(temporary.path, file.path) == 0)
        #expect(Self.eventually { service.values["height"] == 70 && service.values["title"] == "Basket" })
        #expect(try watcher.nextLine(timeout: .seconds(10))?.hasPrefix("pushed 2 tunables") == true)

        // Invalid JSON and a refused value are reported, and the next good save is pushed.
        try Data(#"{"height": 80,"#.utf8).write(to: file)
        usleep(300_000)
        try Data(#"{"height": 999}"#.utf8).write(to: file)
        usleep(300_000)
        #expect(service.values["height"] == 70)
        try Data(#"{"height": 90}"#.utf8).write(to: file)
        #expect(Self.eventually { service.values == ["height": 90] })
        #expect(try watcher.nextLine(timeout: .seconds(10))?.hasPrefix("pushed 1 tunable (seq ") == true)

        // A save that does not change the bytes is not pushed.
        let seq = service.server.hub.lastSeq
        try Data(#"{"height": 90}"#.utf8).write(to: file)
        usleep(300_000)
        #expect(service.server.hub.lastSeq == seq)

        watcher.kill(signal: SIGINT)
        let outcome = try watcher.wait(timeout: .seconds(10))
        #expect(outcome.succeeded, "\(outcome)")
        #expect(outcome.stderr.contains("is not valid JSON"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("refused"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("out_of_range"), "\(outcome.stderr)")
        #expect(outcome.lines.filter { $0.hasPrefix("pushed ") }.count == 4, "\(outcome.stdout)")
    }

    @Test("a service that cannot be reached is a clear error; watch keeps going and reports it")
    func unreachable() throws {
        // A port nothing listens on: take a free one from a server, then stop it.
        let closed = try Service()
        let arguments = closed.arguments
        closed.server.stop()
        let get = try run(["tune", "get"] + arguments)
        #expect(get.status == 1)
        #expect(get.stderr.contains("could not connect"), "\(get)")
        #expect(get.stderr.contains("refused"), "\(get)")

        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("t.json")
        try Data(#"{"height": 1}"#.utf8).write(to: file)
        let watcher = try keyscope.start(["tune", "watch", file.path] + arguments)
        defer { watcher.kill() }
        usleep(500_000)
        watcher.kill(signal: SIGTERM)
        let outcome = try watcher.wait(timeout: .seconds(10))
        #expect(outcome.succeeded, "\(outcome)")
        #expect(outcome.stderr.contains("could not push"), "\(outcome.stderr)")
    }

    @Test("set of an unknown key lists the tunables and the closest; a negative VALUE is a value, not an option")
    func setAdvice() throws {
        let service = try Service()
        defer { service.server.stop() }
        let unknown = try run(["tune", "set", "hieght", "64"] + service.arguments)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("error: unknown_key: no tunable \"hieght\""), "\(unknown)")
        #expect(unknown.stderr.contains("the tunables are: accent, height, title"), "\(unknown)")
        #expect(unknown.stderr.contains("did you mean height?"), "\(unknown)")
        let negative = try run(["tune", "set", "height", "-5"] + service.arguments)
        #expect(negative.status == 1)
        #expect(negative.stderr.hasPrefix("error: out_of_range: height must be within 0...200, not -5"), "\(negative)")
        #expect(service.values["height"] == 48)
    }

    @Test("a refused token is explained by where it came from: --token, KEYSCOPE_TOKEN")
    func refusedToken() throws {
        let service = try Service()
        defer { service.server.stop() }
        let url = service.arguments[1]
        let given = try run(["tune", "get", "--url", url, "--token", "wrong-token-0123456789"])
        #expect(given.status == 1)
        #expect(given.stderr.contains("refused the token given with --token"), "\(given)")
        #expect(!given.stderr.contains("Authorization"), "no HTTP advice for a CLI user: \(given)")
        let inherited = try keyscope.run(
            ["tune", "get", "--url", url],
            environment: ["HOME": NSTemporaryDirectory(), "KEYSCOPE_TOKEN": "wrong-token-0123456789"],
            timeout: .seconds(60))
        #expect(inherited.status == 1)
        #expect(inherited.stderr.contains("the token in KEYSCOPE_TOKEN"), "\(inherited)")
        #expect(inherited.stderr.contains("unset KEYSCOPE_TOKEN"), "\(inherited)")
    }
}
