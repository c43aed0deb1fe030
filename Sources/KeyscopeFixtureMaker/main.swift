import Foundation
import KeyscopePreferences
import KeyscopeServer

// `KeyscopeFixtureMaker --port N --token T --data DIR`: starts ``FixtureApp`` with its inspector, prints
// `Keyscope dashboard: http://127.0.0.1:PORT/?token=TOKEN`, then answers one line per command read from stdin (see
// ``FixtureApp/run(_:)``) until `quit` or the end of stdin. Set XDG_CONFIG_HOME (where corelibs Foundation keeps
// UserDefaults suites) before starting it. Only `scripts/record_fixtures.py` runs it.

var arguments = ArraySlice(CommandLine.arguments.dropFirst())
var options = ServerOptions()
options.name = "keyscope fixture app"
options.port = 0
var dataDirectory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("keyscope-fixture-app")
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("KeyscopeFixtureMaker: \(flag) needs a value\n".utf8))
        exit(2)
    }
    switch flag {
    case "--port": options.port = Int(value) ?? 0
    case "--token": options.token = value
    case "--data": dataDirectory = URL(fileURLWithPath: value)
    default:
        FileHandle.standardError.write(Data("KeyscopeFixtureMaker: unknown option \(flag)\n".utf8))
        exit(2)
    }
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

do {
    let app = try FixtureApp(dataDirectory: dataDirectory, options: options)
    say("Keyscope dashboard: \(app.server.dashboardURL ?? "")")
    while let line = readLine(strippingNewline: true) {
        if line == "quit" { break }
        say(await app.run(line))
    }
    app.server.stop()
    app.preferences.stop()
} catch {
    FileHandle.standardError.write(Data("KeyscopeFixtureMaker: \(error)\n".utf8))
    exit(1)
}
