import ArgumentParser
import Foundation
import KeyscopeServer

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

    /// Checks what a serving command's options say before it starts: a `--port` in range and a token the server
    /// takes (the server's own rule, ``AccessToken/validated(_:)``), each refusal naming its flag.
    static func validate(
        port: Int?, token: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ValidationError) {
        if let port, !(0...65_535).contains(port) {
            throw ValidationError("--port must be 0 (a free port) or 1 to 65535; got \(port).")
        }
        guard let given = given(token, environment: environment),
            case .failure = AccessToken.validated(given)
        else { return }
        let source = token == nil ? "KEYSCOPE_TOKEN" : "--token"
        throw ValidationError("\(source) must be 16 or more URL-safe characters (letters, digits, - . _ ~).")
    }
}
