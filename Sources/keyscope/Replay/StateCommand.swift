import ArgumentParser
import Foundation
import KeyscopeRecording

/// `keyscope state FILE [--at SEQ]`: the state a recording leaves, as one line of canonical JSON.
///
/// ```
/// $ keyscope state checkout.kslog --at 0
/// {"app/memory":{"cart":{"total":90}}}
/// ```
struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Print the state of every store after a recording's last event, or after event --at SEQ.",
        discussion: """
            Replays the recording from its header and prints one JSON object on one line, store id → root, with \
            sorted keys and no spaces, then a newline. Values are JSON as in docs/store.md (colors, urls and \
            non-finite numbers as {"$color": …}, {"$url": …}, {"$number": …}). Stores removed by then are not in \
            it; stores registered later are.

            --at 0 is the state in the header; --at N the state right after event seq N. The whole file is \
            checked even when N comes early: a bad recording prints nothing on stdout, its error (with the line \
            number) on stderr, and exits with status 1, as does an N beyond the last event.

            The bytes printed are what the state digest of `keyscope verify` and `keyscope replay` hashes:
              keyscope state FILE | sha256sum
            shows the same hex. A torn tail (a last line without its newline) is dropped with a warning on \
            stderr. FILE may be - for standard input.

            Examples:
              keyscope state checkout.kslog
              keyscope state checkout.kslog --at 40 | jq '."app/memory".cart'
              diff <(keyscope state a.kslog) <(keyscope state b.kslog)
            """
    )

    @Argument(help: ArgumentHelp("The recording to replay (- for standard input).", valueName: "FILE"))
    var file: String

    // Unconditional, so that `--at -1` reaches validate() and is refused for what it is, not as a missing value.
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Print the state right after this event's seq (0: the header's state).", valueName: "SEQ"))
    var at: Int64?

    @OptionGroup var limits: MaxLineOption

    func validate() throws {
        if let at, at < 0 { throw ValidationError("--at must be 0 or more; got \(at).") }
    }

    func run() throws {
        let input = RecordingInput(path: file, maxLine: limits.maxLine)
        let result: RecordingReader.Replay
        do {
            result = try input.open().replay(upTo: at)
        } catch let error as RecordingError {
            throw input.failure(error)
        }
        if let warning = input.tornTailWarning(result.counts) { Console.error(warning) }
        FileHandle.standardOutput.write(Data(result.state.jsonBytes))
    }
}
