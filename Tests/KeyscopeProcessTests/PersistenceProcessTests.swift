import Foundation
import KeyscopeCore
import KeyscopeTesting
import Testing

/// Persisted stores across process boundaries: every write and every read is a separate run of
/// `KeyscopeTestChild`, so only what reached the disk (a file, or corelibs Foundation's UserDefaults plists) counts.
@Suite("Persistence across processes")
struct PersistenceProcessTests {
    // MARK: File stores

    @Test("a file store written by one process is read by the next")
    func fileSurvivesRestart() throws {
        try withChildSandbox { sandbox in
            let written = try sandbox.state(["write-file", sandbox.storeFile.path, "greeting", #""hello""#])
            #expect(written.root == ["greeting": "hello"])
            let read = try sandbox.state(["read-file", sandbox.storeFile.path])
            #expect(read.root == ["greeting": "hello"])
            #expect(read.version == "1.0.0")
        }
    }

    @Test("values at nested paths, quoted keys and tagged values survive a restart")
    func fileNestedPaths() throws {
        try withChildSandbox { sandbox in
            let path = sandbox.storeFile.path
            try sandbox.state(["write-file", path, "cart", #"{"lines": [{"sku": "tea", "qty": 2}]}"#])
            try sandbox.state(["write-file", path, "cart.lines[0].qty", "5"])
            try sandbox.state(["write-file", path, "cart.lines[1]", #"{"sku": "cake", "qty": 1}"#])
            try sandbox.state(["write-file", path, "prefs", "{}"])
            try sandbox.state(["write-file", path, #"prefs["com.app.theme"]"#, ##"{"$color": "#FF8800"}"##])
            try sandbox.state(["write-file", path, "ratio", "0.5"])
            let read = try sandbox.state(["read-file", path])
            let expected = try StoreValue(
                jsonText: #"""
                    {"cart": {"lines": [{"sku": "tea", "qty": 5}, {"sku": "cake", "qty": 1}]},
                     "prefs": {"com.app.theme": {"$color": "#FF8800"}},
                     "ratio": 0.5}
                    """#)
            #expect(read.root == expected)
        }
    }

    /// `set` creates missing intermediate objects (docs/store.md); what it created must be what is persisted.
    @Test("a set that creates intermediate objects persists them under the right keys")
    func fileCreatedIntermediates() throws {
        try withChildSandbox { sandbox in
            let path = sandbox.storeFile.path
            try sandbox.state(["write-file", path, "a.b.c", "1"])
            try sandbox.state(["write-file", path, "o", "{}"])
            try sandbox.state(["write-file", path, "o.q.r", "2"])
            let read = try sandbox.state(["read-file", path])
            #expect(read.root == ["a": ["b": ["c": 1]], "o": ["q": ["r": 2]]])
        }
    }

    @Test("writes by several processes accumulate, and a removal sticks")
    func fileWritesAccumulate() throws {
        try withChildSandbox { sandbox in
            let path = sandbox.storeFile.path
            for (key, value) in [("a", "1"), ("b", #""two""#), ("c", "[3]")] {
                try sandbox.state(["write-file", path, key, value])
            }
            #expect(try sandbox.state(["read-file", path]).root == ["a": 1, "b": "two", "c": [3]])
            try sandbox.state(["remove-file", path, "b"])
            #expect(try sandbox.state(["read-file", path]).root == ["a": 1, "c": [3]])
        }
    }

    @Test("the file on disk is the documented document, canonical and strict-parsable")
    func fileDocumentFormat() throws {
        try withChildSandbox { sandbox in
            let path = sandbox.storeFile.path
            try sandbox.state(["write-file", path, "cart", #"{"total": 3}"#, "--version", "1.2.0"])
            try sandbox.state(["write-file", path, "name", #""Tea ☕""#, "--version", "1.2.0"])
            let data = try Data(contentsOf: sandbox.storeFile)
            let document = try StoreValue(jsonData: data)  // the strict reader
            #expect(document == ["root": ["cart": ["total": 3], "name": "Tea ☕"], "version": "1.2.0"])
            #expect(document.objectValue.map { Set($0.keys) } == ["root", "version"])
            // FilePersistence promises pretty-printed, sorted keys: the bytes are the canonical form.
            #expect(data == document.jsonData(pretty: true))
        }
    }

    @Test(
        "an unreadable file is left untouched by a read-only open",
        arguments: [
            Data([0x00, 0xFF, 0x13, 0x37, 0xC3, 0x28, 0x0A]),  // binary garbage, invalid UTF-8
            Data(#"{"root": {"a": 1}, "version": "1.0.0""#.utf8),  // truncated JSON
            Data(#"{"root": [1, 2], "version": "1.0.0"}"#.utf8),  // JSON, but not a store document
            Data(#"{"root": {"a": 1}, "version": "one"}"#.utf8),  // a version that does not parse
        ])
    func corruptFileIsNotOverwritten(garbage: Data) throws {
        try withChildSandbox { sandbox in
            try garbage.write(to: sandbox.storeFile)
            // The factory logs the load error and serves an empty store at the requested version...
            let read = try sandbox.state(["read-file", sandbox.storeFile.path])
            #expect(read.root == [:])
            #expect(read.version == "1.0.0")
            // ...and never replaces what it could not read unless something is written.
            #expect(try Data(contentsOf: sandbox.storeFile) == garbage)
            // A second open behaves the same: nothing was "repaired" in between.
            #expect(try sandbox.state(["read-file", sandbox.storeFile.path]).root == [:])
            #expect(try Data(contentsOf: sandbox.storeFile) == garbage)
            #expect(try sandbox.strayTemporaries().isEmpty)
        }
    }

    // MARK: UserDefaults stores (corelibs Foundation writes only on synchronize(); the driver synchronises)

    @Test("a UserDefaults store written by one process is read by the next, removals included")
    func prefsSurviveRestart() throws {
        try withChildSandbox { sandbox in
            let suite = "com.keyscope.process-tests.restart"
            let written = try sandbox.state(["write-prefs", suite, "cart", #"{"total": 3}"#])
            #expect(written.root == ["cart": ["total": 3]])
            #expect(try sandbox.state(["read-prefs", suite]).root == ["cart": ["total": 3]])
            try sandbox.state(["write-prefs", suite, "theme", ##"{"$color": "#FF8800"}"##])
            try sandbox.state(["write-prefs", suite, "cart.note", #""gift""#])
            try sandbox.state(["write-prefs", suite, "flags", #"{"beta": true}"#])
            let read = try sandbox.state(["read-prefs", suite])
            let theme = try StoreValue(jsonText: ##"{"$color": "#FF8800"}"##)  // a tagged color, not an object
            #expect(read.root == ["cart": ["total": 3, "note": "gift"], "theme": theme, "flags": ["beta": true]])
            #expect(read.version == "1.0.0")
            // A removed top-level key must leave the suite on disk, not come back from the old plist.
            try sandbox.state(["remove-prefs", suite, "flags"])
            #expect(
                try sandbox.state(["read-prefs", suite]).root == [
                    "cart": ["total": 3, "note": "gift"], "theme": theme,
                ])
            // Everything went to the sandbox's HOME / XDG_CONFIG_HOME, nothing named after the suite to the real one.
            let files = try sandbox.filesWritten(under: sandbox.home)
            #expect(files.contains { $0.contains(suite) }, "\(files)")
            let realConfig = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config").path
            let leaked = (try? FileManager.default.contentsOfDirectory(atPath: realConfig)) ?? []
            #expect(!leaked.contains { $0.contains(suite) }, "\(leaked)")
        }
    }

    @Test("two suites keep their data apart, and the default suite is a third one")
    func prefsSuitesDoNotMix() throws {
        try withChildSandbox { sandbox in
            try sandbox.state(["write-prefs", "com.a", "owner", #""a""#])
            try sandbox.state(["write-prefs", "com.b", "owner", #""b""#])
            try sandbox.state(["write-prefs", "com.b", "only", "true"])
            try sandbox.state(["write-prefs", "-", "owner", #""default""#])
            #expect(try sandbox.state(["read-prefs", "com.a"]).root == ["owner": "a"])
            #expect(try sandbox.state(["read-prefs", "com.b"]).root == ["owner": "b", "only": true])
            #expect(try sandbox.state(["read-prefs", "-"]).root == ["owner": "default"])
            #expect(try sandbox.state(["read-prefs", "com.c"]).root == [:])
        }
    }

    @Test("a scenario's UserDefaults store has a suite of its own")
    func prefsScenarioScope() throws {
        try withChildSandbox { sandbox in
            try sandbox.state(["write-prefs", "com.shop", "who", #""app""#])
            try sandbox.state(["write-prefs", "com.shop", "who", #""checkout""#, "--scenario", "checkout"])
            #expect(try sandbox.state(["read-prefs", "com.shop"]).root == ["who": "app"])
            #expect(
                try sandbox.state(["read-prefs", "com.shop", "--scenario", "checkout"]).root == ["who": "checkout"])
            #expect(try sandbox.state(["read-prefs", "com.shop", "--scenario", "refund"]).root == [:])
        }
    }

    /// A suite named like another suite's version companion (`<suite>.keyscope`) is still a separate store: opening
    /// it, even only to read, must neither drop the other suite's version nor, through that, its data.
    @Test("a suite named <other>.keyscope does not clobber <other>")
    func prefsSuiteNamedLikeMetaSuite() throws {
        try withChildSandbox { sandbox in
            try sandbox.state(["write-prefs", "com.shop", "cart", #"{"total": 3}"#, "--version", "1.2.0"])
            // A read-only open of the look-alike suite…
            #expect(try sandbox.state(["read-prefs", "com.shop.keyscope", "--version", "1.2.0"]).root == [:])
            // …must leave com.shop as it was.
            let shop = try sandbox.state(["read-prefs", "com.shop", "--version", "1.2.0"])
            #expect(shop.root == ["cart": ["total": 3]])
            // And a write to the look-alike suite must not mix into it either.
            try sandbox.state(["write-prefs", "com.shop", "cart", #"{"total": 3}"#, "--version", "1.2.0"])
            try sandbox.state(["write-prefs", "com.shop.keyscope", "version", #""9.9.9""#, "--version", "1.2.0"])
            #expect(try sandbox.state(["read-prefs", "com.shop", "--version", "1.2.0"]).root == ["cart": ["total": 3]])
        }
    }

    /// An app store whose suite is `<suite>.scenario-<id>` and the scenario `<id>` store of `<suite>` are two
    /// stores; they must not share one UserDefaults domain.
    @Test("an app suite named <suite>.scenario-<id> is not the scenario's suite")
    func prefsAppSuiteNamedLikeScenarioSuite() throws {
        try withChildSandbox { sandbox in
            try sandbox.state(["write-prefs", "com.shop", "who", #""scenario""#, "--scenario", "x"])
            try sandbox.state(["write-prefs", "com.shop.scenario-x", "who", #""app""#])
            #expect(try sandbox.state(["read-prefs", "com.shop", "--scenario", "x"]).root == ["who": "scenario"])
        }
    }

    // MARK: Version rules across restarts

    @Test("minor and patch changes keep the data; a major change drops it", arguments: PersistentStorageKind.allCases)
    func versionRulesAcrossRestarts(kind: PersistentStorageKind) throws {
        try withChildSandbox { sandbox in
            let location = kind.location(in: sandbox)
            try sandbox.state(kind.write(location, "cart", #"{"total": 3}"#) + ["--version", "1.2.0"])
            try sandbox.state(kind.write(location, "name", #""Tea""#) + ["--version", "1.2.0"])

            let minor = try sandbox.state(kind.read(location) + ["--version", "1.3.5"])
            #expect(minor.root == ["cart": ["total": 3], "name": "Tea"])
            #expect(minor.version == "1.3.5")
            // The open recorded the new version (the data's shape is now 1.3.5's), and the data stays…
            if kind == .file {
                #expect(try sandbox.fileDocument()["version"] == "1.3.5")
            }
            let again = try sandbox.state(kind.read(location) + ["--version", "1.3.5"])
            #expect(again.root == minor.root)

            let major = try sandbox.state(kind.read(location) + ["--version", "2.0.0"])
            #expect(major.root == [:])
            #expect(major.version == "2.0.0")
            // …and the drop is itself persisted: the 1.x data does not come back at 2.x.
            let afterMajor = try sandbox.state(kind.read(location) + ["--version", "2.1.0"])
            #expect(afterMajor.root == [:])
            #expect(afterMajor.version == "2.1.0")
            if kind == .file {
                #expect(try sandbox.fileDocument() == ["root": [:], "version": "2.1.0"])
            }
        }
    }

    @Test("the child refuses a bad command line with exit 64 and a message on stderr")
    func childUsageErrors() throws {
        try withChildSandbox { sandbox in
            for arguments in [
                [], ["frobnicate"], ["read-file"], ["read-file", "a", "b"], ["read-file", "a", "--version", "1.2"],
                ["write-prefs", "s", "k", "1", "--no-flush"], ["loop-file", "a", "--bogus"],
            ] {
                let outcome = try sandbox.run(arguments)
                #expect(outcome.status == 64 && !outcome.signaled, "\(arguments): \(outcome)")
                #expect(outcome.stderr.contains("KeyscopeTestChild:"), "\(arguments): \(outcome)")
                #expect(outcome.stdout.isEmpty, "\(arguments): \(outcome)")
            }
            let badJSON = try sandbox.run(["write-file", sandbox.storeFile.path, "a", "{nope"])
            #expect(badJSON.status == 65, "\(badJSON)")
        }
    }
}

// MARK: - Helpers shared with KillTests

/// The two persistent storages the child can open, with their command lines.
enum PersistentStorageKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case file
    case prefs

    var testDescription: String { rawValue }

    func location(in sandbox: ChildSandbox) -> String {
        switch self {
        case .file: sandbox.storeFile.path
        case .prefs: "com.keyscope.process-tests"
        }
    }

    func write(_ location: String, _ key: String, _ json: String) -> [String] {
        ["write-\(rawValue)", location, key, json]
    }

    func read(_ location: String) -> [String] { ["read-\(rawValue)", location] }
}

/// A temporary directory for one test, with the child's `HOME` and `XDG_CONFIG_HOME` inside it, so that
/// UserDefaults of the children never touch the real home.
struct ChildSandbox {
    let directory: URL
    let child: ChildProcess

    var home: URL { directory.appendingPathComponent("home", isDirectory: true) }
    var storeFile: URL {
        directory.appendingPathComponent("data", isDirectory: true).appendingPathComponent("store.json")
    }
    var environment: [String: String] {
        ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path]
    }

    /// Runs the child to its end.
    func run(_ arguments: [String]) throws -> ChildProcess.Outcome {
        try child.run(arguments, environment: environment, timeout: .seconds(120))
    }

    /// Runs a read or write command, requires success, and returns the state it printed.
    @discardableResult
    func state(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (root: StoreValue, version: String)
    {
        let outcome = try run(arguments)
        try #require(outcome.succeeded, "\(arguments): \(outcome)", sourceLocation: sourceLocation)
        let lines = outcome.lines
        try #require(lines.count == 2, "\(arguments): \(outcome)", sourceLocation: sourceLocation)
        return (try StoreValue(jsonText: lines[0]), lines[1])
    }

    /// The store file parsed with the strict reader.
    func fileDocument() throws -> StoreValue {
        try StoreValue(jsonData: Data(contentsOf: storeFile))
    }

    /// Left-over `AtomicFile` temporaries (`.<name>.tmp-<pid>-<random>`) beside the store file.
    func strayTemporaries() throws -> [String] {
        let prefix = "." + storeFile.lastPathComponent + ".tmp-"
        let names = try FileManager.default.contentsOfDirectory(atPath: storeFile.deletingLastPathComponent().path)
        return names.filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// Regular files below `directory`, as paths relative to it.
    func filesWritten(under directory: URL) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { relative in
            var isDirectory: ObjCBool = false
            let full = directory.appendingPathComponent(relative).path
            return FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }
}

/// Runs `body` with a fresh sandbox and removes it afterwards, whatever happens.
func withChildSandbox<R>(_ body: (ChildSandbox) throws -> R) throws -> R {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("keyscope-process-\(UUID().uuidString)", isDirectory: true)
    let sandbox = ChildSandbox(directory: directory, child: try ChildProcess(product: "KeyscopeTestChild"))
    try FileManager.default.createDirectory(at: sandbox.home, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
        at: sandbox.storeFile.deletingLastPathComponent(), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(sandbox)
}
