import Foundation

/// Where the dashboard's files are when --public is not given.
enum PublicDirectory {
    /// `./Public` when the current directory is a Keyscope checkout, else the `Public/` of the package this binary
    /// was built from.
    static var `default`: URL? { PackageFolder.find("Public", marker: "index.html") }
}

/// The token a serving command (`serve`, `replay --serve`) gives its server.
enum TokenOption {
    /// `--token`, else `$KEYSCOPE_TOKEN` when it is set and not empty; `nil` when neither is (a server then makes a
    /// random token, a client looks for the server record's).
    static func given(
        _ token: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        token ?? environment["KEYSCOPE_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
