#if canImport(Glibc)
import Foundation
import Glibc
import Synchronization
import Testing

@testable import KeyscopeSecrets

/// A session bus and a gnome-keyring of the tests' own, so that the Secret Service tests never touch (or need) the
/// developer's session: `dbus-daemon` with a private configuration (no service activation, so nothing else is ever
/// started on it) and `gnome-keyring-daemon --foreground --unlock --components=secrets`, with HOME and the XDG
/// directories in a temporary directory. `--unlock` creates the `login` collection from the password on its stdin
/// and unlocks it; it is the default collection. Both run as ``WatchedDaemon``s, so they end with the test process
/// even if it crashes.
///
/// `start()` points `DBUS_SESSION_BUS_ADDRESS` at the private bus (libsecret reads it when it first connects) and
/// checks that a write, a read and a delete work; `stop()` drops libsecret's connection, restores the variable,
/// ends both daemons and removes the directory. Failing to start throws an error that says what failed and shows
/// the daemons' logs. libsecret's shared connection outlives a stopped bus in the process (GDBus keeps the session
/// connection), so a process can start one keyring only.
final class PrivateKeyring: @unchecked Sendable {  // @unchecked: every field is set in init and never changed.
    /// The keyring of the running suite (set by the `.privateKeyring` trait).
    @TaskLocal static var current: PrivateKeyring?

    private static let startedInThisProcess = Mutex(false)

    let root: URL
    let busAddress: String
    private let daemons: [WatchedDaemon]
    private let previousAddress: String?

    private init(root: URL, busAddress: String, daemons: [WatchedDaemon], previousAddress: String?) {
        self.root = root
        self.busAddress = busAddress
        self.daemons = daemons
        self.previousAddress = previousAddress
    }

    static func start() throws -> PrivateKeyring {
        let first = startedInThisProcess.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else {
            throw TestSetupError(
                "the private keyring was already started once in this process, and libsecret keeps its first "
                    + "session bus connection for the life of the process: run the Secret Service suite once per "
                    + "test process (no repetitions)")
        }
        let root = try makeTemporaryDirectory("keyring")
        var started: [WatchedDaemon] = []
        do {
            return try startDaemons(in: root, started: &started)
        } catch {
            for daemon in started.reversed() { daemon.stop() }
            try? FileManager.default.removeItem(at: root)
            throw error
        }
    }

    private static func startDaemons(in root: URL, started: inout [WatchedDaemon]) throws -> PrivateKeyring {
        var environment = ProcessInfo.processInfo.environment
        for name in [
            "DBUS_SESSION_BUS_ADDRESS", "DBUS_SESSION_BUS_PID", "DISPLAY", "WAYLAND_DISPLAY",
            "GNOME_KEYRING_CONTROL", "SSH_AUTH_SOCK",
        ] {
            environment[name] = nil
        }
        for (name, folder) in [
            ("HOME", "home"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"),
            ("XDG_CACHE_HOME", "cache"), ("XDG_RUNTIME_DIR", "run"),
        ] {
            let path = root.appendingPathComponent(folder).path
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            environment[name] = path
        }

        let socket = root.appendingPathComponent("run/bus").path
        let config = root.appendingPathComponent("bus.conf")
        try busConfiguration(socket: socket).write(to: config, atomically: true, encoding: .utf8)
        let bus = try WatchedDaemon(
            try executable("dbus-daemon", package: "dbus-daemon", environment),
            ["--nofork", "--nopidfile", "--config-file=\(config.path)"],
            environment: environment, input: nil, log: root.appendingPathComponent("bus.log"),
            pidFile: root.appendingPathComponent("bus.pid"), cleanup: root)
        started.append(bus)
        try waitFor("dbus-daemon to listen on \(socket)", bus, root) { FileManager.default.fileExists(atPath: socket) }
        let address = "unix:path=\(socket)"

        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        let password = root.appendingPathComponent("password")
        try Data("keyscope-tests".utf8).write(to: password)
        let keyring = try WatchedDaemon(
            try executable("gnome-keyring-daemon", package: "gnome-keyring", environment),
            ["--foreground", "--unlock", "--components=secrets"],
            environment: environment, input: password, log: root.appendingPathComponent("keyring.log"),
            pidFile: root.appendingPathComponent("keyring.pid"))
        started.append(keyring)
        try waitFor("gnome-keyring-daemon to own org.freedesktop.secrets", keyring, root) {
            SessionBusProbe.secretServiceAnswers(at: address, timeoutMilliseconds: 500)
        }

        let previous = getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) }
        SecretServiceStore.disconnect()
        setenv("DBUS_SESSION_BUS_ADDRESS", address, 1)
        let fixture = PrivateKeyring(
            root: root, busAddress: address, daemons: [keyring, bus], previousAddress: previous)
        do {
            try fixture.checkUnlocked()
        } catch {
            fixture.restoreEnvironment()
            throw error
        }
        return fixture
    }

    /// Ends both daemons (the keyring first) and removes the directory; call once.
    func stop() {
        restoreEnvironment()
        for daemon in daemons { daemon.stop() }
        try? FileManager.default.removeItem(at: root)
    }

    private func restoreEnvironment() {
        SecretServiceStore.disconnect()
        if let previousAddress {
            setenv("DBUS_SESSION_BUS_ADDRESS", previousAddress, 1)
        } else {
            unsetenv("DBUS_SESSION_BUS_ADDRESS")
        }
    }

    /// A write, read and delete in the default collection: it exists and is unlocked (retried for up to 10 s,
    /// while the daemon finishes creating the `login` collection).
    private func checkUnlocked() throws {
        let store = try SecretServiceStore(appID: "dev.keyscope.tests.fixture")
        let deadline = Date().addingTimeInterval(10)
        while true {
            do {
                try store.write(Data("ready".utf8), service: "fixture", account: "probe")
                guard try store.read(service: "fixture", account: "probe") == Data("ready".utf8) else {
                    throw TestSetupError("the private keyring did not return what was written to it")
                }
                _ = try store.delete(service: "fixture", account: "probe")
                return
            } catch let error as SecretStoreError where error.code == .unavailable && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.1)
            } catch {
                throw TestSetupError("the private gnome-keyring is not usable (\(error)).\n\(Self.logs(root))")
            }
        }
    }

    private static func busConfiguration(socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }

    /// The path of `name` on PATH (or in /usr/bin, /usr/sbin, /bin); says which package to install when missing.
    private static func executable(_ name: String, package: String, _ environment: [String: String]) throws -> String {
        let searchPath = (environment["PATH"] ?? "") + ":/usr/bin:/usr/sbin:/bin"
        let candidates = searchPath.split(separator: ":").map { "\($0)/\(name)" }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TestSetupError(
                "\(name) is not installed: the Secret Service tests need it (apt-get install \(package); "
                    + "`make deps` installs it)")
        }
        return found
    }

    /// Polls `ready` every 50 ms for up to 15 s; throws (with the logs) when the daemon exits or time runs out.
    private static func waitFor(_ what: String, _ daemon: WatchedDaemon, _ root: URL, _ ready: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(15)
        while !ready() {
            guard daemon.isRunning else {
                throw TestSetupError("waiting for \(what): \(daemon.name) exited.\n\(logs(root))")
            }
            guard Date() < deadline else {
                throw TestSetupError("waiting for \(what): still not ready after 15 s.\n\(logs(root))")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    private static func logs(_ root: URL) -> String {
        ["bus.log", "keyring.log"].map { name in
            let text = (try? String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)) ?? ""
            return "\(name): \(text.isEmpty ? "(empty)" : text)"
        }.joined(separator: "\n")
    }
}

/// Runs a suite with a ``PrivateKeyring`` started before its first test and stopped after its last.
struct PrivateKeyringTrait: SuiteTrait, TestScoping {
    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let keyring = try PrivateKeyring.start()
        defer { keyring.stop() }
        try await PrivateKeyring.$current.withValue(keyring) {
            try await function()
        }
    }
}

extension Trait where Self == PrivateKeyringTrait {
    /// A private session bus and gnome-keyring for the suite (see ``PrivateKeyring``).
    static var privateKeyring: Self { Self() }
}
#endif
