import Foundation
import KeyscopeClient
import KeyscopeCore

/// What `tune watch` does with each save: reads the file and, when its bytes changed, pushes it with `POST /tune`.
/// Every outcome is one line; none of them stops the watch.
///
/// ```
/// pushed 12 tunables (seq 41)                                                   (stdout)
/// keyscope tune watch: live-constants.json is not valid JSON: …; fix it and save again   (stderr)
/// ```
struct TunablesPusher {
    let file: TunablesFile
    /// Which service to push to, looked up again for each push: a service that was not running when the watch
    /// began (or restarted on another port) is found once it runs.
    let server: ClientOptions
    /// The bytes last handled (pushed, or refused for good); a save of the same bytes is ignored.
    private var handled: [UInt8]?

    init(file: TunablesFile, server: ClientOptions) {
        self.file = file
        self.server = server
    }

    /// Reads the file and pushes it unless its bytes are the ones last handled.
    mutating func pushIfChanged() {
        let data: [UInt8]
        do {
            guard let read = try file.read() else {
                if handled != [] { Self.notice("\(file.path) does not exist (yet); waiting for it to be saved") }
                handled = []
                return
            }
            data = Array(read)
        } catch {
            Self.notice(error.message)
            return
        }
        guard data != handled else { return }
        handled = data
        let values: [String: StoreValue]
        do {
            values = try file.parse(.init(data))
        } catch {
            Self.notice("\(error.message); fix it and save again")
            return
        }
        let client: TunablesClient
        do {
            client = try server.tunablesClient()
        } catch {
            handled = nil
            Self.notice("could not push \(file.path): \(error); the next save is pushed again")
            return
        }
        let what = "\(values.count) tunable\(values.count == 1 ? "" : "s")"
        do {
            if server.allInstances {
                try pushEverywhere(values, client: client, what: what)
            } else {
                let result = try client.replace(with: values)
                Console.line("pushed \(what) (\(result.seq.map { "seq \($0)" } ?? "nothing changed"))")
            }
        } catch {
            if error.code == nil {
                // Not refused, not reached: a save of the same bytes should try again.
                handled = nil
                Self.notice("could not push \(file.path): \(error.message); the next save is pushed again")
            } else {
                Self.notice("the service refused \(file.path): \(TuneFailure.line(error, server: server))")
            }
        }
    }

    /// `--instance '*'`: one line per live instance. An instance that refused is named; the watch goes on.
    private func pushEverywhere(_ values: [String: StoreValue], client: TunablesClient, what: String)
        throws(TunablesClientError)
    {
        let answers = try client.replaceEverywhere(with: values)
        if answers.isEmpty { Self.notice("no live instance in the fleet to push \(file.path) to") }
        for (id, answer) in answers.sorted(by: { $0.key < $1.key }) {
            switch answer {
            case .success(let result):
                Console.line("\(id): pushed \(what) (\(result.seq.map { "seq \($0)" } ?? "nothing changed"))")
            case .failure(let error):
                Self.notice("\(id) refused \(file.path): \(error.description)")
            }
        }
    }

    static func notice(_ text: String) {
        Console.error("keyscope tune watch: \(text)")
    }
}
