import ArgumentParser
import KeyscopeClient
import KeyscopeCore

/// `keyscope tune set KEY VALUE`: sets one tunable.
///
/// ```
/// $ keyscope tune set toolbar_height 64
/// toolbar_height = 64 (seq 41)
/// ```
struct TuneSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set one tunable of a running service.",
        discussion: """
            Sends PUT /tune/KEY/VALUE, each percent-encoded as one path segment, so that any value works (slashes, \
            spaces, #, %, non-ASCII; a key holds no "/"). The service reads VALUE as an integer when it is a JSON \
            number without fraction or exponent (64, -0), as a number when it is any other JSON number (2.5, 1e3), \
            and as a string otherwise (#ff8800, nan, 0x10, +1, true). A key the service does not have yet is \
            created (the tunables are an open JSON object), and stderr says "keyscope tune set: created KEY, …" \
            with the tunables there were and the closest one (a misspelt key shows up that way; `tune remove KEY` \
            takes it out). The service's schema checks it; prints \
            "KEY = VALUE (seq N)" with the value as the service stored it. A refusal is printed as \
            "error: CODE: MESSAGE" on stderr with exit status 1 (unknown_key, type_mismatch, out_of_range, \
            read_only, no_tunables, …); unknown_key (a service whose schema takes no new keys) also lists the \
            tunables there are and the closest one.

            Against a fleet dashboard (keyscope fleet), --instance ID sets it on that instance and --instance '*' on \
            every live one, with one line per instance ("ID: KEY = VALUE (seq N)" or "ID: error CODE: MESSAGE"; \
            exit status 1 unless every instance took it).

            A negative number is taken as a VALUE (-5, -2.5), not as an option. A string that reads as a number \
            ("64") cannot be sent this way: put it in the file and use `tune watch`.

            Examples:
              keyscope tune set toolbar_height 64
              keyscope tune set accent '#ff8800'
              keyscope tune set greeting 'Hello, world/2'
              keyscope tune set offset -5
              keyscope tune set toolbar_height 64 --instance '*'
            """
    )

    @Argument(help: ArgumentHelp("The tunable's key.", valueName: "KEY"))
    var key: String

    @Argument(help: ArgumentHelp("The new value, as text (see above for how it is read).", valueName: "VALUE"))
    var value: String

    @OptionGroup(title: "Server")
    var server: ClientOptions

    func validate() throws {
        if key.isEmpty { throw ValidationError("KEY must not be empty.") }
    }

    func run() throws {
        let client = try server.tunablesClient()
        if server.allInstances { return try setEverywhere(client) }
        // The keys before the write, to tell a key this write creates (a typo, under an open schema) on stderr.
        let before = try? client.values().keys.sorted()
        let result: TunablesClient.Result
        do {
            result = try client.set(key: key, text: value)
        } catch {
            throw TuneFailure.report(error, server: server, key: key)
        }
        Console.line(line(result))
        if let before, !before.contains(key) { Console.error(Self.creationNotice(key, before: before)) }
    }

    /// For stderr, when the set created a tunable the service did not have: the closest one it had, the ones it
    /// had, and how to take the new one out.
    static func creationNotice(_ key: String, before: [String]) -> String {
        let typo = KnownStores.closest(to: key, among: before).map { "a typo of \($0)? " } ?? "a typo? "
        let had = before.isEmpty ? "it had none" : "it had \(before.joined(separator: ", "))"
        let word = key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) }
        let quoted = "'" + key.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
        let argument = word ? key : quoted
        return "keyscope tune set: created \(key), a tunable the service did not have (\(typo)\(had)); "
            + "`keyscope tune remove \(argument)` takes it out"
    }

    /// `--instance '*'`: one line per live instance, `ID: KEY = VALUE (seq N)` or `ID: error CODE: MESSAGE`; exit
    /// status 1 unless every instance took it.
    private func setEverywhere(_ client: TunablesClient) throws {
        let answers: TunablesClient.Answers
        do {
            answers = try client.setEverywhere(key: key, text: value)
        } catch {
            throw TuneFailure.report(error, server: server, key: key)
        }
        guard !answers.isEmpty else {
            Console.error("error: no live instance in the fleet")
            throw ExitCode.failure
        }
        let lines = answers.sorted(by: { $0.key < $1.key }).map { id, answer in
            switch answer {
            case .success(let result): "\(id): \(line(result))"
            case .failure(let error): "\(id): error \(error.description)"
            }
        }
        lines.forEach(Console.line)
        if answers.values.contains(where: { (try? $0.get()) == nil }) { throw ExitCode.failure }
    }

    private func line(_ result: TunablesClient.Result) -> String {
        let stored = result.value?.jsonText(sortedKeys: true) ?? value
        return "\(key) = \(stored) (\(result.seq.map { "seq \($0)" } ?? "nothing changed"))"
    }
}
