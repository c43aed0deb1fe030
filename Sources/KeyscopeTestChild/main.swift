// KeyscopeTestChild: a process that the process tests start, restart and kill -9, to check that persisted stores
// survive the end of a process. Every command opens its store through `DefaultStoreFactory`, as an app would.
//
//   write-file PATH KEY JSON     sets KEY, flushes, prints the snapshot (sorted-key JSON) and the version
//   remove-file PATH KEY         removes KEY, flushes, prints the same two lines
//   read-file PATH               prints the same two lines without writing anything
//   write-prefs / remove-prefs / read-prefs SUITE …   the same for a UserDefaults suite ("-": the default one)
//   loop-file PATH [--no-flush]  counts up forever from the file's `counter` (see LoopCommand.swift)
//   defaults-set SUITE KEY PLIST-JSON / defaults-remove SUITE KEY / defaults-get SUITE KEY / defaults-dump SUITE
//                                raw UserDefaults keys, as an app writes them (see DefaultsCommand.swift)
//
// Options: --version X.Y.Z (the factory's data version, default 1.0.0), --scenario ID (the store's scope),
// --timing (write-* and remove-*: a third line with the time the write and its save took).
// Exit codes: 0 done, 64 bad command line, 65 bad KEY or JSON, 70 the store refused the write.
import Foundation
import KeyscopeCore

let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    Output.error("KeyscopeTestChild: \(error.message)")
    Output.error(Arguments.usage)
    exit(ExitCode.usage)
}

if arguments.command.isRawDefaults { DefaultsCommand(arguments: arguments).run() }

let factory = DefaultStoreFactory(version: arguments.version, registry: StoreRegistry())

/// The storage named by the first positional argument.
func storage(_ arguments: Arguments) -> Storage {
    let location = arguments.positionals[0]
    switch arguments.command {
    case .writeFile, .removeFile, .readFile, .loopFile:
        return .file(url: URL(fileURLWithPath: location))
    case .writePrefs, .removePrefs, .readPrefs:
        return .userPrefs(suite: location == "-" ? nil : location)
    case .defaultsSet, .defaultsRemove, .defaultsGet, .defaultsDump:
        Output.fail("\(arguments.command.rawValue) opens no store", code: ExitCode.usage)
    }
}

func keyPath(_ text: String) -> StoreKeyPath {
    do {
        return try StoreKeyPath(parsing: text)
    } catch {
        Output.fail("KEY \"\(text)\" is not a key path: \(error)", code: ExitCode.dataError)
    }
}

func value(_ text: String) -> StoreValue {
    do {
        return try StoreValue(jsonText: text)
    } catch {
        Output.fail("JSON \(text) is not a StoreValue: \(error)", code: ExitCode.dataError)
    }
}

/// Applies `operation`, waits until it is saved, and prints the result (and, with `--timing`, how long each took).
func write(_ operation: StoreOperation, to store: KeyValueStore) {
    let clock = ContinuousClock()
    let start = clock.now
    do {
        try store.apply(operation)
    } catch {
        Output.fail("the store refused \(operation): \(error)", code: ExitCode.software)
    }
    let applied = clock.now
    store.flush()
    let saved = clock.now
    printState(of: store)
    if arguments.timing {
        Output.line("write \(milliseconds(applied - start)) ms, save \(milliseconds(saved - applied)) ms")
    }
}

func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return String(format: "%.3f", Double(seconds) * 1e3 + Double(attoseconds) / 1e15)
}

/// Line 1: the snapshot as sorted-key JSON; line 2: the store's version.
func printState(of store: KeyValueStore) {
    let (root, version) = store.snapshotWithVersion()
    Output.line(root.jsonText(sortedKeys: true))
    Output.line(version.description)
}

let store = factory.store(scope: arguments.scope, storage: storage(arguments))
switch arguments.command {
case .writeFile, .writePrefs:
    write(.set(keyPath(arguments.positionals[1]), value(arguments.positionals[2])), to: store)
case .removeFile, .removePrefs:
    write(.remove(keyPath(arguments.positionals[1])), to: store)
case .readFile, .readPrefs:
    printState(of: store)
case .loopFile:
    LoopCommand(store: store, flushEachWrite: arguments.flushEachWrite).run()
case .defaultsSet, .defaultsRemove, .defaultsGet, .defaultsDump:
    break  // handled above
}
exit(0)
