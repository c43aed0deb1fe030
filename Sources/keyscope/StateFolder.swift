import Foundation

/// The per-user folders `keyscope` keeps state in (the demo's secrets, recordings): under `$KEYSCOPE_HOME` when it
/// is set, else under `~/.local/state/keyscope`.
enum StateFolder {
    /// `$KEYSCOPE_HOME/<name>`, else `~/.local/state/keyscope/<name>` (not created here).
    static func named(_ name: String, environment: [String: String]) -> URL {
        if let home = environment["KEYSCOPE_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).appendingPathComponent(name, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(
            ".local/state/keyscope/\(name)", isDirectory: true)
    }
}
