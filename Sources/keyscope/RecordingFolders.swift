import Foundation

/// Where `keyscope serve` keeps and finds recordings when --recordings and --offer-recordings are not given.
enum RecordingFolders {
    /// `$KEYSCOPE_HOME/recordings`, else `~/.local/state/keyscope/recordings`.
    static func own(environment: [String: String]) -> URL {
        StateFolder.named("recordings", environment: environment)
    }

    /// `./fixtures/recordings` when the current directory is a Keyscope checkout, else the `fixtures/recordings/`
    /// of the package this binary was built from (as ``PublicDirectory`` finds `Public/`); `nil` when neither exists.
    static var offered: URL? { PackageFolder.find("fixtures/recordings", marker: "README.md") }
}
