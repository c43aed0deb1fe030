public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An executable of this package, run as a child process by tests: to completion with a timeout, or in the
/// background to read its lines as they come and kill it.
///
/// ```swift
/// let child = try ChildProcess(product: "KeyscopeTestChild")
/// let outcome = try child.run(["read-file", "/tmp/t/store.json"], environment: ["HOME": "/tmp/t"])
/// #expect(outcome.status == 0)
/// print(outcome.lines)
///
/// let loop = try child.start(["loop-file", "/tmp/t/store.json"])
/// let first = try loop.nextLine(timeout: .seconds(10))
/// loop.kill()
/// let end = try loop.wait(timeout: .seconds(10))   // every line it printed, and how it ended
/// ```
/// The child's stdin is `/dev/null`; its stdout and stderr are close-on-exec pipes, so no other process started
/// meanwhile (by a test running in parallel) holds them open, and the end of output is seen as soon as it dies.
public struct ChildProcess: Sendable {
    /// The executable that ``run(_:environment:timeout:)`` and ``start(_:environment:)`` start.
    public let executableURL: URL

    public init(executableURL: URL) {
        self.executableURL = executableURL
    }

    /// The built executable of `product`, found by ``locate(product:)``.
    public init(product: String) throws(ChildProcessError) {
        self.init(executableURL: try Self.locate(product: product))
    }

    /// Where executables of this package are looked for, in order: `$KEYSCOPE_BIN_DIR` if set, then the
    /// directory of the running test bundle (`Bundle.main`, `CommandLine.arguments[0]`) and its parents.
    public static var searchDirectories: [URL] {
        var directories: [URL] = []
        if let binDirectory = ProcessInfo.processInfo.environment["KEYSCOPE_BIN_DIR"], !binDirectory.isEmpty {
            directories.append(URL(fileURLWithPath: binDirectory, isDirectory: true))
        }
        var starts = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let argument0 = CommandLine.arguments.first, !argument0.isEmpty {
            let program = URL(fileURLWithPath: argument0).resolvingSymlinksInPath()
            starts.append(program.deletingLastPathComponent())
        }
        for start in starts {
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                if !directories.contains(directory) { directories.append(directory) }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        return directories
    }

    /// The first executable file named `product` in ``searchDirectories``.
    ///
    /// `swift build --build-tests` builds the executables a test target depends on into the same directory as
    /// the test bundle; set `KEYSCOPE_BIN_DIR` when running the tests from elsewhere.
    public static func locate(product: String) throws(ChildProcessError) -> URL {
        let directories = searchDirectories
        for directory in directories {
            let candidate = directory.appendingPathComponent(product, isDirectory: false)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        throw .notFound(product, searched: directories.map(\.path))
    }

    /// Runs the child with `arguments` to its end and returns what it printed and how it ended.
    ///
    /// - Parameters:
    ///   - environment: variables set on top of this process's environment (`HOME`, `XDG_CONFIG_HOME`…).
    ///   - timeout: after this the child is killed (SIGKILL) and ``ChildProcessError`` is thrown with its output.
    public func run(
        _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(60)
    ) throws(ChildProcessError) -> Outcome {
        let running = try start(arguments, environment: environment)
        return try running.wait(timeout: timeout, killOnTimeout: true)
    }

    /// Starts the child in the background; read its lines with ``Running/nextLine(timeout:)``.
    public func start(_ arguments: [String], environment: [String: String] = [:]) throws(ChildProcessError)
        -> Running
    {
        let process = Process()
        process.executableURL = executableURL
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        let stdout = try OutputPipe()
        let stderr = try OutputPipe()
        process.standardOutput = FileHandle(fileDescriptor: stdout.writeEnd, closeOnDealloc: false)
        process.standardError = FileHandle(fileDescriptor: stderr.writeEnd, closeOnDealloc: false)
        let exit = ExitSignal()
        process.terminationHandler = { _ in exit.markExited() }
        do {
            try process.run()
        } catch {
            stdout.closeBothEnds()
            stderr.closeBothEnds()
            throw .launchFailed(executableURL.path, "\(error)")
        }
        // The child has its copies; without closing ours the reader would never see the end of output.
        close(stdout.writeEnd)
        close(stderr.writeEnd)
        return Running(
            process: process, exit: exit, stdout: OutputCollector(reading: stdout.readEnd),
            stderr: OutputCollector(reading: stderr.readEnd), description: describe(arguments))
    }

    private func describe(_ arguments: [String]) -> String {
        ([executableURL.lastPathComponent] + arguments).joined(separator: " ")
    }
}

extension ChildProcess {
    /// How a child ended and everything it printed.
    public struct Outcome: Sendable, CustomStringConvertible {
        /// The exit status, or the signal number when ``signaled`` is true.
        public let status: Int32
        /// Whether the child was ended by a signal (then ``status`` is the signal, e.g. 9 for SIGKILL).
        public let signaled: Bool
        public let stdout: String
        public let stderr: String

        /// Whether the child exited by itself with status 0.
        public var succeeded: Bool { !signaled && status == 0 }

        /// The lines of ``stdout``, without the line feeds.
        public var lines: [String] {
            var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return lines
        }

        public var description: String {
            (signaled ? "killed by signal \(status)" : "exit \(status)") + "\nstdout:\n\(stdout)\nstderr:\n\(stderr)"
        }
    }

    /// A child started by ``ChildProcess/start(_:environment:)``.
    public final class Running: Sendable {
        public let processIdentifier: Int32
        /// Read only for its termination fields, once the termination handler has run.
        private let process: Process
        private let exit: ExitSignal
        private let stdout: OutputCollector
        private let stderr: OutputCollector
        private let commandLine: String

        fileprivate init(
            process: Process, exit: ExitSignal, stdout: OutputCollector, stderr: OutputCollector,
            description: String
        ) {
            self.process = process
            self.processIdentifier = process.processIdentifier
            self.exit = exit
            self.stdout = stdout
            self.stderr = stderr
            self.commandLine = description
        }

        deinit {
            // A child nobody waited for must not outlive the test.
            if !exit.hasExited {
                kill()
                _ = exit.wait(until: .now() + 10)
            }
        }

        /// The next line the child printed (without its line feed), waiting for it up to `timeout`; `nil` once
        /// the child closed its output (it ended) and every line was read.
        public func nextLine(timeout: Duration) throws(ChildProcessError) -> String? {
            let deadline = DispatchTime.now() + timeout.dispatchInterval
            while true {
                switch stdout.takeLine() {
                case .line(let line): return line
                case .end: return nil
                case .none:
                    if stdout.waitForData(until: deadline) == .timedOut {
                        throw .timedOut(commandLine, "waiting for a line", stdout.text, stderr.text)
                    }
                }
            }
        }

        /// Sends `signal` (SIGKILL unless said otherwise) to the child, unless it is known to have ended (its
        /// process id may then belong to another process).
        public func kill(signal: Int32 = SIGKILL) {
            exit.unlessExited { _ = sendSignal(processIdentifier, signal) }
        }

        /// Waits for the child to end and for the end of its output; returns how it ended and all it printed
        /// (including lines already taken with ``nextLine(timeout:)``).
        public func wait(timeout: Duration) throws(ChildProcessError) -> Outcome {
            try wait(timeout: timeout, killOnTimeout: false)
        }

        fileprivate func wait(timeout: Duration, killOnTimeout: Bool) throws(ChildProcessError) -> Outcome {
            let deadline = DispatchTime.now() + timeout.dispatchInterval
            guard exit.wait(until: deadline) else {
                if killOnTimeout {
                    kill()
                    _ = exit.wait(until: .now() + 10)
                }
                throw .timedOut(commandLine, "waiting for the child to end", stdout.text, stderr.text)
            }
            guard stdout.waitForEnd(until: deadline), stderr.waitForEnd(until: deadline) else {
                throw .timedOut(commandLine, "waiting for the end of its output", stdout.text, stderr.text)
            }
            let signaled = process.terminationReason == .uncaughtSignal
            return Outcome(
                status: process.terminationStatus, signaled: signaled, stdout: stdout.text, stderr: stderr.text)
        }
    }
}

/// Why a child could not be found, started or waited for. A struct over a private enum so cases can be added.
public struct ChildProcessError: Error, Sendable, CustomStringConvertible {
    private enum Kind: Sendable {
        case notFound(product: String, searched: [String])
        case launchFailed(path: String, reason: String)
        case pipeFailed(reason: String)
        case timedOut(commandLine: String, while: String, stdout: String, stderr: String)
    }

    private let kind: Kind

    static func notFound(_ product: String, searched: [String]) -> Self {
        Self(kind: .notFound(product: product, searched: searched))
    }
    static func launchFailed(_ path: String, _ reason: String) -> Self {
        Self(kind: .launchFailed(path: path, reason: reason))
    }
    static func pipeFailed(_ reason: String) -> Self { Self(kind: .pipeFailed(reason: reason)) }
    static func timedOut(_ commandLine: String, _ action: String, _ stdout: String, _ stderr: String) -> Self {
        Self(kind: .timedOut(commandLine: commandLine, while: action, stdout: stdout, stderr: stderr))
    }

    public var description: String {
        switch kind {
        case .notFound(let product, let searched):
            "no executable \"\(product)\" in \(searched.joined(separator: ", ")); build it with "
                + "`swift build --build-tests` or set KEYSCOPE_BIN_DIR to the directory that holds it"
        case .launchFailed(let path, let reason):
            "could not start \(path): \(reason)"
        case .pipeFailed(let reason):
            "could not make a pipe for a child's output: \(reason)"
        case .timedOut(let commandLine, let action, let stdout, let stderr):
            "timed out \(action): \(commandLine)\nstdout so far:\n\(stdout)\nstderr so far:\n\(stderr)"
        }
    }
}

/// Whether a child has ended (Foundation has reaped it and run the termination handler), waitable.
private final class ExitSignal: Sendable {
    private let exited = Mutex(false)
    private let semaphore = DispatchSemaphore(value: 0)

    var hasExited: Bool { exited.withLock { $0 } }

    func markExited() {
        exited.withLock { $0 = true }
        semaphore.signal()
    }

    /// Runs `body` under the lock unless the child has ended, so a signal is never sent after the handler ran.
    func unlessExited(_ body: () -> Void) {
        exited.withLock { exited in
            if !exited { body() }
        }
    }

    /// Whether the child ended by `deadline`.
    func wait(until deadline: DispatchTime) -> Bool {
        if hasExited { return true }
        guard semaphore.wait(timeout: deadline) == .success else { return hasExited }
        semaphore.signal()  // keep the wake-up for any later waiter
        return true
    }
}

/// A pipe whose both ends are close-on-exec: only the child it is given to (through dup2) gets the write end.
private struct OutputPipe {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws(ChildProcessError) {
        var fds: [Int32] = [-1, -1]
        #if canImport(Glibc)
        guard let pipe2 = Self.pipe2 else { throw .pipeFailed("this C library has no pipe2") }
        guard pipe2(&fds, O_CLOEXEC) == 0 else { throw .pipeFailed(String(cString: strerror(errno))) }
        #else
        // No pipe2 here: another thread may spawn between the two calls; tests there must not rely on this.
        guard pipe(&fds) == 0 else { throw .pipeFailed(String(cString: strerror(errno))) }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        #endif
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    #if canImport(Glibc)
    /// glibc's `pipe2`, which its headers declare only under `_GNU_SOURCE` (so Swift does not see it).
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private static let pipe2: Pipe2? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "pipe2") else { return nil }
        return unsafeBitCast(symbol, to: Pipe2.self)
    }()
    #endif

    func closeBothEnds() {
        close(readEnd)
        close(writeEnd)
    }
}

/// Reads one pipe to its end on a thread of its own and keeps the bytes; hands out complete lines.
private final class OutputCollector: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var consumed = 0
        var ended = false
    }

    enum Take {
        case line(String)
        case end, none
    }

    private let state = Mutex(State())
    /// Signalled after each read; waiters re-check `state`, so extra signals are harmless.
    private let changed = DispatchSemaphore(value: 0)

    init(reading fd: Int32) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                state.withLock { $0.bytes.append(contentsOf: buffer[0..<n]) }
                changed.signal()
            }
            close(fd)
            state.withLock { $0.ended = true }
            changed.signal()
        }
        thread.start()
    }

    var text: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }

    func takeLine() -> Take {
        state.withLock { state in
            let rest = state.bytes[state.consumed...]
            if let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: state.bytes[state.consumed..<newline], as: UTF8.self)
                state.consumed = newline + 1
                return .line(line)
            }
            guard state.ended else { return .none }
            if state.consumed < state.bytes.count {  // a last line without a line feed
                let line = String(decoding: rest, as: UTF8.self)
                state.consumed = state.bytes.count
                return .line(line)
            }
            return .end
        }
    }

    func waitForData(until deadline: DispatchTime) -> DispatchTimeoutResult {
        changed.wait(timeout: deadline)
    }

    func waitForEnd(until deadline: DispatchTime) -> Bool {
        while !state.withLock({ $0.ended }) {
            if changed.wait(timeout: deadline) == .timedOut { return state.withLock { $0.ended } }
        }
        changed.signal()  // keep a wake-up for another waiter
        return true
    }
}

/// `kill(2)`, named apart from ``ChildProcess/Running/kill(signal:)``.
private func sendSignal(_ pid: Int32, _ signal: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.kill(pid, signal)
    #else
    Darwin.kill(pid, signal)
    #endif
}

extension Duration {
    /// This duration for Dispatch deadlines (negative durations count as zero).
    fileprivate var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        return .nanoseconds(Int(max(0, min(nanoseconds, Int64(Int.max)))))
    }
}
