public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real `redis-server` of the test's own: on a free loopback port, in a temporary folder, never the system one.
///
/// ```swift
/// let redis = try RedisTestServer()                       // started; ready for connections
/// let url = redis.url                                     // "redis://127.0.0.1:PORT"
/// try redis.restart(keepingData: false)                   // same port, empty
/// redis.stop()                                            // SIGTERM to its pid, waits (also done on release)
/// ```
/// `extraArguments` go to redis-server as they are (`["--requirepass", "s3cret"]`). With `persistent: true` the
/// server saves its data to its folder when stopped (SIGTERM), so ``restart(keepingData:)`` can bring it back.
/// `redis-server` must be on PATH (`make deps` installs it); set `KEYSCOPE_REDIS_SERVER` to use another binary.
public final class RedisTestServer: Sendable {
    /// The loopback port it listens on (the same across restarts).
    public let port: Int
    /// Its private folder (logs, data), removed when the server is released.
    public let directory: URL
    private let extraArguments: [String]
    private let persistent: Bool
    /// The running server's pid (`nil` while stopped).
    private let running = Mutex<pid_t?>(nil)

    /// Starts a server and waits until it accepts connections.
    public init(extraArguments: [String] = [], persistent: Bool = false) throws {
        self.extraArguments = extraArguments
        self.persistent = persistent
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "keyscope-redis-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var lastError: (any Error)?
        // A port found free can be taken before redis-server binds it: try a few.
        for _ in 0..<5 {
            let candidate = try Self.freePort()
            do {
                let started = try Self.launch(
                    port: candidate, directory: directory, extra: extraArguments, persistent: persistent)
                running.withLock { $0 = started }
                port = candidate
                return
            } catch {
                lastError = error
            }
        }
        try? FileManager.default.removeItem(at: directory)
        throw lastError ?? RedisTestServerError("redis-server did not start")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// `redis://127.0.0.1:PORT` (add credentials or a db as the test needs).
    public var url: String { "redis://127.0.0.1:\(port)" }

    /// The server's process id, while it runs.
    public var pid: Int32? { running.withLock { $0 } }

    /// Stops the server with SIGTERM and waits for it (a persistent one saves its data first).
    public func stop() { end(signal: SIGTERM) }

    /// Kills the server with SIGKILL and waits for it (nothing is saved).
    public func kill() { end(signal: SIGKILL) }

    /// Starts it again on the same port: with the data it saved (persistent servers) or with its folder emptied.
    public func restart(keepingData: Bool) throws {
        stop()
        if !keepingData {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            where name != "redis.log" {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            }
        }
        try start()
    }

    /// Starts a stopped server again on the same port.
    public func start() throws {
        let started = try Self.launch(port: port, directory: directory, extra: extraArguments, persistent: persistent)
        running.withLock { $0 = started }
    }

    private func end(signal: Int32) {
        guard
            let pid = running.withLock({ p -> pid_t? in
                defer { p = nil }
                return p
            })
        else { return }
        sendSignal(signal, to: pid)
        // A generous guard; redis-server ends in milliseconds.
        if !Self.reap(pid, within: .seconds(30)) {
            sendSignal(SIGKILL, to: pid)
            _ = Self.reap(pid, within: .seconds(10))
        }
    }

    /// Waits for the child `pid` to end and reaps it; false when it still runs after `limit`.
    private static func reap(_ pid: pid_t, within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        var status: Int32 = 0
        while ContinuousClock.now < deadline {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno == ECHILD) { return true }
            usleep(5_000)
        }
        return false
    }

    /// Starts redis-server with posix_spawn and every signal unblocked and at its default: a test runner's thread
    /// may block SIGTERM, and a child inherits that mask (Foundation's Process keeps it), so it would never stop.
    private static func launch(port: Int, directory: URL, extra: [String], persistent: Bool) throws -> pid_t {
        let binary = ProcessInfo.processInfo.environment["KEYSCOPE_REDIS_SERVER"] ?? "redis-server"
        let log = directory.appendingPathComponent("redis.log")
        let mark = (try? Data(contentsOf: log).count) ?? 0
        let arguments =
            [
                "/usr/bin/env", binary, "--port", String(port), "--bind", "127.0.0.1", "--dir", directory.path,
                "--logfile", log.path, "--daemonize", "no", "--appendonly", "no",
                "--save", persistent ? "3600 1" : "",
            ] + extra
        let pid = try spawn(arguments)
        // Ready when the log (past what earlier runs wrote) says so; generous, as a guard only.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let data = try? Data(contentsOf: log), data.count > mark,
                String(decoding: data[mark...], as: UTF8.self).contains("Ready to accept connections")
            {
                return pid
            }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw RedisTestServerError(
                    "\(binary) on port \(port) exited (wait status \(status)): \(text.suffix(400)); "
                        + "is redis-server installed (`make deps`)?")
            }
            usleep(10_000)  // polling the log: redis-server has no other readiness signal
        }
        sendSignal(SIGKILL, to: pid)
        _ = reap(pid, within: .seconds(10))
        throw RedisTestServerError("\(binary) on port \(port) was not ready within 20 s; see \(log.path)")
    }

    private static func spawn(_ arguments: [String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in 0...2 {
            posix_spawn_file_actions_addopen(
                &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/usr/bin/env", &actions, &attributes, &argv, environ)
        guard result == 0 else {
            throw RedisTestServerError("could not start \(arguments[1]): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Whether `pid` is a live process (not gone, not a zombie).
    private static func isAlive(_ pid: Int32) -> Bool {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).prefix(1)
        return state != "Z" && state != "X"
        #else
        return kill(pid, 0) == 0
        #endif
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now (bound to port 0, read back, released).
    public static func freePort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw RedisTestServerError("socket() failed: errno \(errno)") }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(socketFD, pointer, length) == 0 else { return -1 }
                return getsockname(socketFD, pointer, &length)
            }
        }
        guard bound == 0 else { throw RedisTestServerError("could not bind a loopback port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// `kill(2)`, outside the type whose `kill()` would hide it.
private func sendSignal(_ signal: Int32, to pid: Int32) { _ = kill(pid, signal) }

/// The test server could not be set up; the message says why and what to do.
public struct RedisTestServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
