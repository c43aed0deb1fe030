import KeyscopeCore

/// The command line of the child, parsed by hand (the target depends on KeyscopeCore only).
///
/// ```
/// KeyscopeTestChild write-file /tmp/x/store.json cart.total 3 --version 1.2.0
/// KeyscopeTestChild read-prefs com.shop --scenario checkout
/// ```
/// Options (`--version X.Y.Z`, `--scenario ID`, `--no-flush`) may stand anywhere after the command.
struct Arguments {
    /// What the child was asked to do.
    enum Command: String, CaseIterable {
        case writeFile = "write-file"
        case removeFile = "remove-file"
        case readFile = "read-file"
        case writePrefs = "write-prefs"
        case removePrefs = "remove-prefs"
        case readPrefs = "read-prefs"
        case loopFile = "loop-file"
        case defaultsSet = "defaults-set"
        case defaultsRemove = "defaults-remove"
        case defaultsGet = "defaults-get"
        case defaultsDump = "defaults-dump"

        /// Whether the command reads or writes raw UserDefaults keys (DefaultsCommand.swift) rather than a store.
        var isRawDefaults: Bool { rawValue.hasPrefix("defaults-") }

        /// The positional arguments the command takes, in order.
        var positionals: [String] {
            switch self {
            case .writeFile: ["PATH", "KEY", "JSON"]
            case .removeFile: ["PATH", "KEY"]
            case .readFile, .loopFile: ["PATH"]
            case .writePrefs: ["SUITE", "KEY", "JSON"]
            case .removePrefs: ["SUITE", "KEY"]
            case .readPrefs: ["SUITE"]
            case .defaultsSet: ["SUITE", "KEY", "PLIST-JSON"]
            case .defaultsRemove, .defaultsGet: ["SUITE", "KEY"]
            case .defaultsDump: ["SUITE"]
            }
        }

        var usage: String { ([rawValue] + positionals).joined(separator: " ") }
    }

    var command: Command
    var positionals: [String]
    var version: SemanticVersion = .initial
    var scope: Scope = .app
    /// `loop-file` only: leave saving to the store's background writer instead of flushing after every write.
    var flushEachWrite = true
    /// `write-*` and `remove-*`: print a third line, the time the write and its save took (`write 0.41 ms, save
    /// 2.3 ms`), for measuring the storages (docs/hardening.md).
    var timing = false

    static let usage = """
        usage: KeyscopeTestChild COMMAND ARGUMENTS [--version X.Y.Z] [--scenario ID] [--no-flush] [--timing]
        commands:
        \(Command.allCases.map { "  " + $0.usage }.joined(separator: "\n"))
        SUITE "-" is the default suite; JSON is one StoreValue in JSON text; KEY is a key path (cart.items[0]).
        defaults-*: KEY is a plain UserDefaults key; PLIST-JSON is JSON where {"$$date": ISO 8601} is a date and
        {"$$data": base64} is data (see DefaultsCommand.swift).
        """

    /// Parses `arguments` (without the program name).
    init(_ arguments: [String]) throws(UsageError) {
        guard let first = arguments.first else { throw UsageError("no command given") }
        guard let command = Command(rawValue: first) else { throw UsageError("unknown command \"\(first)\"") }
        self.command = command
        self.positionals = []
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--version":
                guard let text = rest.popFirst() else { throw UsageError("--version needs a value") }
                guard let version = SemanticVersion(parsing: text) else {
                    throw UsageError("--version \"\(text)\" is not a major.minor.patch version")
                }
                self.version = version
            case "--scenario":
                guard let id = rest.popFirst(), !id.isEmpty else { throw UsageError("--scenario needs an id") }
                self.scope = .scenario(id: id)
            case "--no-flush":
                guard command == .loopFile else { throw UsageError("--no-flush is for loop-file only") }
                self.flushEachWrite = false
            case "--timing":
                self.timing = true
            case "--":
                positionals.append(contentsOf: rest)
                rest = []
            default:
                if argument.hasPrefix("--") { throw UsageError("unknown option \(argument)") }
                positionals.append(argument)
            }
        }
        guard positionals.count == command.positionals.count else {
            throw UsageError(
                "\(command.rawValue) takes \(command.positionals.count) arguments (\(command.usage)), "
                    + "got \(positionals.count)")
        }
    }
}

/// A command line the child cannot act on; it exits 64 (EX_USAGE) with the message and the usage on stderr.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
