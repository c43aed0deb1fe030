public import Foundation
import KeyscopeCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a running inspector server is found by tools on the same machine: a small JSON file with its address and
/// token, readable only by its user, in a directory only its user can enter.
///
/// ```swift
/// // the server, once listening:
/// let file = try ServerRecord(host: "127.0.0.1", port: 8081, token: token, name: "demo").write()
/// // a CLI, without being told anything:
/// let server = try ServerRecord.find(port: nil)     // the newest live server, or the one on that port
/// ```
/// The directory is `$KEYSCOPE_HOME/servers`, else `$XDG_RUNTIME_DIR/keyscope/servers`, else `servers` in the state
/// folder (``KeyscopeStateFolder``: `$XDG_STATE_HOME/keyscope`, else `$HOME/.local/state/keyscope`); the file is
/// `<port>.json`. A server removes its file when it stops; files of
/// processes that are gone are skipped (and removed) by ``find(port:)``.
public struct ServerRecord: Sendable, Hashable, Codable {
    /// The address the server listens on, as given (`127.0.0.1`, `::1`, …).
    public var host: String
    public var port: Int
    public var token: String
    /// The serving process.
    public var pid: Int32
    /// The server's name (sent in `hello`).
    public var name: String
    /// When the server started, RFC 3339 with milliseconds (two servers started in the same second still order).
    public var started: String

    public init(host: String, port: Int, token: String, name: String, pid: Int32 = getpid(), started: Date = Date()) {
        self.host = host
        self.port = port
        self.token = token
        self.name = name
        self.pid = pid
        self.started = Self.startedFormat(fractional: true).string(from: started)
    }

    /// When the server started, read from ``started`` (records written without milliseconds read too).
    public var startDate: Date {
        Self.startedFormat(fractional: true).date(from: started)
            ?? Self.startedFormat(fractional: false).date(from: started) ?? .distantPast
    }

    private static func startedFormat(fractional: Bool) -> ISO8601DateFormatter {
        let format = ISO8601DateFormatter()
        if fractional { format.formatOptions.insert(.withFractionalSeconds) }
        return format
    }

    /// `http://HOST:PORT` (IPv6 hosts in brackets; a wildcard host becomes loopback, where a local tool reaches it).
    public var baseURL: String { Self.baseURL(host: host, port: port) }

    /// `http://HOST:PORT` for a listening address, as a local tool reaches it.
    public static func baseURL(host: String, port: Int) -> String {
        let reachable: String
        switch host {
        case "0.0.0.0", "": reachable = "127.0.0.1"
        case "::": reachable = "[::1]"
        default: reachable = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        }
        return "http://\(reachable):\(port)"
    }

    /// The directory the records live in (not created by reading it).
    public static var directory: URL { directory(environment: ProcessInfo.processInfo.environment) }

    /// The directory the records live in for `environment` (see the type's notes for the order).
    public static func directory(environment: [String: String]) -> URL {
        if let home = environment["KEYSCOPE_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).appendingPathComponent("servers")
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return URL(fileURLWithPath: runtime).appendingPathComponent("keyscope/servers")
        }
        return KeyscopeStateFolder.named("servers", environment: environment)
    }

    /// The record file for a port.
    public static func file(port: Int) -> URL { directory.appendingPathComponent("\(port).json") }

    /// Writes the record atomically with mode 0600, in a directory made with mode 0700; returns the file.
    @discardableResult
    public func write() throws -> URL {
        let directory = Self.directory
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // An existing directory keeps its mode: refuse one that others can read, since the token is in it.
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path)
        if let mode = attributes[.posixPermissions] as? NSNumber, mode.intValue & 0o077 != 0 {
            chmod(directory.path, 0o700)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let url = Self.file(port: port)
        try AtomicFile.write(try encoder.encode(self), to: url, permissions: 0o600)
        return url
    }

    /// Removes this server's record, when it is still this process's.
    public func remove() {
        let url = Self.file(port: port)
        if let current = try? Self.read(url), current.pid == pid, current.token == token {
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// Reads one record file.
    public static func read(_ url: URL) throws -> ServerRecord {
        try JSONDecoder().decode(ServerRecord.self, from: Data(contentsOf: url))
    }

    /// The records of servers whose process is still alive, newest first. Records of dead processes are removed.
    public static func live() -> [ServerRecord] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var records: [ServerRecord] = []
        for name in names where name.hasSuffix(".json") {
            let url = directory.appendingPathComponent(name)
            guard let record = try? read(url) else { continue }
            if kill(record.pid, 0) == 0 || errno == EPERM {
                records.append(record)
            } else {
                try? FileManager.default.removeItem(at: url)
            }
        }
        return records.sorted { $0.startDate > $1.startDate }
    }

    /// The live server on `port`, or the newest live one when `port` is nil.
    public static func find(port: Int?) throws(ServerRecordError) -> ServerRecord {
        let records = live()
        if let port {
            guard let record = records.first(where: { $0.port == port }) else { throw .noServer(port: port) }
            return record
        }
        guard let newest = records.first else { throw .noServer(port: nil) }
        return newest
    }
}

/// Why no server record was found.
public enum ServerRecordError: Error, Sendable, CustomStringConvertible {
    case noServer(port: Int?)

    public var description: String {
        switch self {
        case .noServer(let port?):
            "no running keyscope server on port \(port) found in \(ServerRecord.directory.path); "
                + "pass --url and --token (or KEYSCOPE_TOKEN)"
        case .noServer(nil):
            "no running keyscope server found in \(ServerRecord.directory.path); start one with `keyscope serve --demo`, "
                + "or pass --url and --token (or KEYSCOPE_TOKEN)"
        }
    }
}
