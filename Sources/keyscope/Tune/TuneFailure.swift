import ArgumentParser
import KeyscopeClient
import KeyscopeCore

/// How the `tune` commands report a failed call: a server refusal as `error: CODE: MESSAGE` (with the keys there are
/// for `unknown_key`, and token advice for `unauthorized`), anything else as `error: MESSAGE`, on stderr, then exit
/// status 1.
///
/// ```swift
/// do { … } catch { throw TuneFailure.report(error) }
/// ```
enum TuneFailure {
    /// Prints the error's line and returns the exit to throw.
    static func report(_ error: TunablesClientError, server: ClientOptions, key: String? = nil) -> ExitCode {
        Console.error("error: \(line(error, server: server, key: key))")
        return .failure
    }

    /// `CODE: MESSAGE` for a refusal: for a refused token what to do about it (which depends on where the token
    /// came from), for an unknown key the keys there are; the message alone for anything else.
    static func line(_ error: TunablesClientError, server: ClientOptions, key: String? = nil) -> String {
        switch error.code {
        case "unauthorized"?:
            return "unauthorized: \(server.tokenAdvice())"
        case "unknown_key"?:
            guard let keys = try? TunablesClient(endpoint: try server.endpoint()).values().keys.sorted() else {
                return error.description
            }
            return error.description + "; " + knownKeys(keys, near: key)
        default:
            return error.description
        }
    }

    /// `the tunables are: a, b, c (did you mean b?)`, or that there are none.
    static func knownKeys(_ keys: [String], near key: String?) -> String {
        guard !keys.isEmpty else { return "the service has no tunables" }
        let closest = key.flatMap { KnownStores.closest(to: $0, among: keys) }
        return "the tunables are: \(keys.joined(separator: ", "))" + (closest.map { " (did you mean \($0)?)" } ?? "")
    }
}

extension ClientOptions {
    /// Every tunable of the server these options name (`GET /tune`); a failure is reported as ``TuneFailure`` does.
    func tunableValues() throws -> [String: StoreValue] {
        do {
            return try tunablesClient().values()
        } catch let error as TunablesClientError {
            throw TuneFailure.report(error, server: self)
        }
    }

    /// A client of the tunables these options name. With `--instance`, the server must be a fleet dashboard: a
    /// server of one process ignores the parameter, and its own tunables would be taken for the instance's.
    func tunablesClient() throws -> TunablesClient {
        let endpoint = try endpoint()
        let client = TunablesClient(endpoint: endpoint)
        guard let instance else { return client }
        let answer = try? client.http.send(method: "GET", target: "/api/fleet", body: nil)
        if let answer, answer.status == 404 {
            throw CommandFailure(
                "--instance \(instance): \(endpoint) is not a fleet dashboard; point --port or --url at a "
                    + "`keyscope fleet`")
        }
        return client
    }
}
