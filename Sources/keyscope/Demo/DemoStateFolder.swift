import Foundation
import KeyscopeInspector
import KeyscopeProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `keyscope serve --demo` keeps what must outlive a run: `demo/` in the state folder
/// (``KeyscopeStateFolder``), holding the tunables' bundled defaults (`bundle/`), their writable copy
/// (`live-constants.json`) and the settings store's `state.json`, as a user's own service keeps its data.
///
/// ```swift
/// let folder = try DemoStateFolder.prepare()     // ~/.local/state/keyscope/demo, made 0700 when new
/// ```
enum DemoStateFolder {
    /// `<state folder>/demo`, created (mode 0700) when missing. Also removes the per-run folders that older
    /// versions made in the temporary directory (`keyscope-serve-PID`) and left behind when killed.
    static func prepare(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        let folder = KeyscopeStateFolder.named("demo", environment: environment)
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        removeStaleRunFolders(in: FileManager.default.temporaryDirectory)
        return folder
    }

    /// The folder a `--tunables FILE` copy is kept in: one per defaults file (named by its path's hash), so the
    /// demo's own tunables and another file's never mix, and each keeps its edits across restarts.
    static func customTunables(in folder: URL, defaults: URL) -> URL {
        // FNV-1a: stable across runs and platforms (Hasher is seeded per process).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in defaults.standardizedFileURL.path.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let name = "tunables-\(String(hash, radix: 16))"
        return folder.appendingPathComponent(name, isDirectory: true)
    }

    /// Removes `<temporary>/keyscope-serve-PID` folders whose process is gone.
    static func removeStaleRunFolders(in temporary: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(runFolderPrefix) {
            guard let pid = Int32(name.dropFirst(runFolderPrefix.count)), pid > 0 else { continue }
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name, isDirectory: true))
        }
    }

    /// The prefix of the per-run folders older versions made.
    static let runFolderPrefix = "keyscope-serve-"
}
