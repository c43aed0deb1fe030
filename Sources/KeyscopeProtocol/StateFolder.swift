public import Foundation

/// The per-user folder Keyscope keeps state in (server records when there is no runtime folder, recordings, the
/// demo's secrets, tunables and settings file).
///
/// ```swift
/// KeyscopeStateFolder.url()                        // ~/.local/state/keyscope
/// KeyscopeStateFolder.url(environment: ["XDG_STATE_HOME": "/s"])   // /s/keyscope
/// ```
/// The first that is set and not empty wins: `$KEYSCOPE_HOME`, `$XDG_STATE_HOME/keyscope`,
/// `$HOME/.local/state/keyscope`, and last the home folder of the user's account entry.
public enum KeyscopeStateFolder {
    /// The state folder for `environment` (not created here).
    public static func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let home = environment["KEYSCOPE_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty {
            return URL(fileURLWithPath: state, isDirectory: true).appendingPathComponent("keyscope", isDirectory: true)
        }
        // Foundation's home directory on Linux comes from the account entry and ignores $HOME, which a user (or a
        // test) sets to move everything; $HOME is asked first.
        let home =
            environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/state/keyscope", isDirectory: true)
    }

    /// `<state folder>/<name>` (not created here).
    public static func named(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> URL
    {
        url(environment: environment).appendingPathComponent(name, isDirectory: true)
    }
}
