import ArgumentParser
import KeyscopeRecording

/// `keyscope verify FILE`: checks a recording against every rule of LOG-FORMAT.md and prints its summary.
///
/// ```
/// $ keyscope verify checkout.kslog
/// checkout.kslog: ok
/// events    12 (10 changes with 14 patches, 2 store events)
/// …
/// ```
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a recording (.kslog) line by line and print its summary.",
        discussion: """
            Reads the recording from its header to its last line and checks every rule of the log format: line 1 \
            is a complete header (format keyscope-log, version 1, createdAt, stores); every later line is one \
            event, a change or a registered/reset/removed store event; seq starts at 1 and rises by exactly 1; \
            every change applies to the state the lines before it leave, each patch's old value (or its absence) \
            included. Unknown keys are ignored.

            A good recording prints "FILE: ok" and its summary: events, changes and patches, stores at the start \
            and at the end, the recorded times, the bytes read, and the state digest, the SHA-256 of exactly what \
            `keyscope state FILE` prints (so `keyscope state FILE | sha256sum` shows the same hex).

            A bad one prints the first error, with its line number, reason and code, and exits with status 1:
              Error: a.kslog: line 4: seq 4 follows seq 2; … (bad_seq)
            The codes are bad_header, bad_line, bad_seq, patch_does_not_apply, line_too_long and io.

            A last line without its newline (a torn tail, as a crash leaves it) is not an error: it is dropped, \
            and a warning on stderr says how many bytes. The file is streamed, a few lines in memory at a time, so \
            recordings of any size can be checked. FILE may be - for standard input.

            Examples:
              keyscope verify fixtures/recordings/checkout-session.kslog
              gunzip -c big.kslog.gz | keyscope verify -
            """
    )

    @Argument(help: ArgumentHelp("The recording to check (- for standard input).", valueName: "FILE"))
    var file: String

    @OptionGroup var limits: MaxLineOption

    func run() throws {
        let input = RecordingInput(path: file, maxLine: limits.maxLine)
        let summary: RecordingSummary
        do {
            summary = try input.open().replay().summary
        } catch let error as RecordingError {
            throw input.failure(error)
        }
        if let warning = input.tornTailWarning(summary) { Console.error(warning) }
        Console.line("\(input.name): ok")
        for line in SummaryText.lines(summary) { Console.line(line) }
    }
}
