import ArgumentParser
import KeyscopeClient
import KeyscopeCore

/// How the `tune` commands report a failed call: a server refusal as `error: CODE: MESSAGE`, anything else as
/// `error: MESSAGE`, on stderr, then exit status 1.
///
/// ```swift
/// do { … } catch { throw TuneFailure.report(error) }
/// ```
enum TuneFailure {
    /// Prints the error's line and returns the exit to throw.
    static func report(_ error: TunablesClientError) -> ExitCode {
        Console.error("error: \(line(error))")
        return .failure
    }

    /// `CODE: MESSAGE` for a refusal (with advice for a token problem), the message alone otherwise.
    static func line(_ error: TunablesClientError) -> String {
        switch error.code {
        case "unauthorized"?:
            "\(error): pass the server's token with --token T or KEYSCOPE_TOKEN (it is in the dashboard URL the "
                + "server printed, ?token=…)"
        default:
            error.description
        }
    }
}

extension ClientOptions {
    /// Every tunable of the server these options name (`GET /tune`); a failure is reported as ``TuneFailure`` does.
    func tunableValues() throws -> [String: StoreValue] {
        do {
            return try TunablesClient(endpoint: try endpoint()).values()
        } catch let error as TunablesClientError {
            throw TuneFailure.report(error)
        }
    }
}
