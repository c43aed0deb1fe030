import Foundation
import Testing

/// End-to-end tests of the `keyscope` executable: each test runs the built binary as a child process and reads
/// what it printed. SwiftPM builds the binary because this test target depends on the `keyscope` target.
@Suite("keyscope CLI")
struct CLITests {
    @Test("--version prints the version and exits 0")
    func version() async throws {
        let run = try await CLIChild.run(["--version"])
        #expect(run.status == 0)
        let printed = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(printed.wholeMatch(of: /keyscope \d+\.\d+\.\d+/) != nil, "printed \(printed)")
    }

    @Test("--help lists the demo subcommand")
    func help() async throws {
        let run = try await CLIChild.run(["--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("USAGE: keyscope <subcommand>"))
        #expect(run.stdout.contains("demo"))
        #expect(run.stdout.contains("--version"))
    }

    @Test("demo prints one line per change with store ids, single writes and transactions")
    func demoPrintsChanges() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let run = try await CLIChild.run(
            ["demo", "--duration", "1", "--rate", "20", "--seed", "1", "--state-dir", state.url.path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let changes = lines.filter { $0.wholeMatch(of: Self.changeLine) != nil }
        #expect(changes.count >= 10, "output:\n\(run.stdout)")
        #expect(changes.contains { $0.contains("  app/memory  ") })
        #expect(changes.contains { $0.contains("  scenario:checkout/memory  ") })
        #expect(changes.contains { $0.contains("  app/file:\(state.url.path)/state.json  ") })
        #expect(changes.contains { $0.contains("  set ") && !$0.contains(" txn ") }, "a single set")
        #expect(changes.contains { $0.contains(" txn ") && $0.contains("; ") }, "a transaction of several patches")
        #expect(lines.contains { $0.contains("publisher CheckoutButton:") })
        #expect(lines.contains { $0.contains("subscriptions: ") && $0.contains("StepIndicator on") })
        #expect(lines.last?.hasPrefix("done: ") == true, "summary line, got \(lines.last ?? "nothing")")
        #expect(FileManager.default.fileExists(atPath: state.url.appendingPathComponent("state.json").path))
    }

    @Test("demo --rate 0 is refused with an error on stderr")
    func demoRejectsRateZero() async throws {
        let run = try await CLIChild.run(["demo", "--rate", "0"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--rate must be at least 1"), "stderr: \(run.stderr)")
        #expect(!run.stdout.contains("registered"))
    }

    @Test("two demo runs with the same seed print the same patches")
    func demoIsDeterministic() async throws {
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        defer {
            first.remove()
            second.remove()
        }
        let arguments = ["demo", "--duration", "1", "--rate", "40", "--seed", "7", "--state-dir"]
        async let runA = CLIChild.run(arguments + [first.url.path])
        async let runB = CLIChild.run(arguments + [second.url.path])
        let (a, b) = try await (runA, runB)
        #expect(a.status == 0 && b.status == 0)
        let linesA = Self.normalized(a.stdout, stateDirectory: first.url.path)
        let linesB = Self.normalized(b.stdout, stateDirectory: second.url.path)
        #expect(linesA.count >= 40)
        #expect(linesA == linesB)
    }

    @Test("Ctrl-C stops the demo cleanly with a summary")
    func demoStopsOnInterrupt() async throws {
        let state = try TemporaryDirectory()
        defer { state.remove() }
        let child = try CLIChild(["demo", "--rate", "20", "--seed", "3", "--state-dir", state.url.path])
        defer { child.cleanUp() }
        try await child.waitForOutput(timeout: .seconds(60)) { $0.contains("  scenario:checkout/memory  ") }
        child.interrupt()
        let run = try await child.wait(timeout: .seconds(30))
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let last = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let summary = /interrupted: \d+ changes to 3 stores in [0-9.]+ s \(.*\)/
        #expect(last.wholeMatch(of: summary) != nil, "last line: \(last)")
    }

    /// `HH:MM:SS.mmm  <store id>  <what happened>`.
    private static var changeLine: Regex<Substring> { /\d\d:\d\d:\d\d\.\d\d\d  \S+  .+/ }

    /// The timestamped lines without their time, transaction ids and state directory, which differ between runs.
    private static func normalized(_ output: String, stateDirectory: String) -> [String] {
        output.split(separator: "\n").compactMap { line -> String? in
            guard line.wholeMatch(of: changeLine) != nil else { return nil }
            return String(line.dropFirst(14))
                .replacing(/txn [0-9a-f]{8}/, with: "txn")
                .replacing(stateDirectory, with: "<state>")
        }
    }
}

// MARK: - A small child-process helper, private to these tests

/// How a child ended and what it printed.
private struct CLIRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The `keyscope` executable run as a child process, its output sent to files (so no pipe can fill up or be held
/// open by another test's child), waited for by polling with a deadline.
private final class CLIChild {
    private let process = Process()
    private let directory: TemporaryDirectory
    private let stdoutURL: URL
    private let stderrURL: URL

    init(_ arguments: [String]) throws {
        directory = try TemporaryDirectory()
        stdoutURL = directory.url.appendingPathComponent("stdout.txt")
        stderrURL = directory.url.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = try Self.executable()
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
    }

    /// Runs `keyscope` with `arguments` to its end.
    static func run(_ arguments: [String], timeout: Duration = .seconds(90)) async throws -> CLIRun {
        let child = try CLIChild(arguments)
        defer { child.cleanUp() }
        return try await child.wait(timeout: timeout)
    }

    var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }

    /// Sends SIGINT, as Ctrl-C does.
    func interrupt() { process.interrupt() }

    /// Waits until the output so far satisfies `condition`.
    func waitForOutput(timeout: Duration, _ condition: (String) -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition(stdout) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                throw CLITestError("the output never matched; it was:\n\(stdout)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits for the child to exit; kills it and throws after `timeout`.
    func wait(timeout: Duration) async throws -> CLIRun {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw CLITestError("keyscope \(process.arguments ?? []) did not exit within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.waitUntilExit()
        let stderr = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
        return CLIRun(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    func cleanUp() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        directory.remove()
    }

    /// The built `keyscope`: in `$KEYSCOPE_BIN_DIR`, else next to the test bundle or in one of its parents.
    private static func executable() throws -> URL {
        var starts: [URL] = []
        if let directory = ProcessInfo.processInfo.environment["KEYSCOPE_BIN_DIR"], !directory.isEmpty {
            starts.append(URL(fileURLWithPath: directory, isDirectory: true))
        }
        if let argument0 = CommandLine.arguments.first, !argument0.isEmpty {
            starts.append(URL(fileURLWithPath: argument0).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        starts.append(Bundle.main.bundleURL)
        var candidates: [URL] = []
        for start in starts {
            var directory = start
            for _ in 0..<4 {
                candidates.append(directory.appendingPathComponent("keyscope"))
                directory = directory.deletingLastPathComponent()
            }
        }
        let found = candidates.first { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && FileManager.default.isExecutableFile(atPath: url.path)
        }
        guard let found else {
            throw CLITestError(
                "no keyscope executable found; looked at \(candidates.map(\.path)). Build it, or set KEYSCOPE_BIN_DIR")
        }
        return found
    }
}

/// A fresh directory under the temporary directory, removed by ``remove()``.
private struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("keyscope-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

private struct CLITestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
