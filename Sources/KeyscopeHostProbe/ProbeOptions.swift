import Foundation

/// The probe's command line, parsed by hand (``usage`` is its synopsis; main.swift says what the probe prints).
struct ProbeOptions {
    /// Where the probe keeps its own data: `state.json` (a file store), `live-constants.json` (its tunables) and
    /// `bundle/` (the tunables' defaults, as an app would ship them).
    var stateDirectory: URL
    /// The inspector's port; `nil` with `--no-server` (a bare hub, enough for `--record`).
    var port: Int? = 0
    /// The dashboard's files the inspector serves (`--public`); none by default.
    var publicDirectory: URL?
    /// Where `POST /api/recordings` records (`--recordings`); no recordings endpoint without it.
    var recordingsDirectory: URL?
    /// A recording of the hub started at once into this file (`--record`).
    var recordFile: URL?
    /// The pause between two steps of the probe's own work.
    var interval: Duration = .milliseconds(10)
    /// The inspector's token (`--token`); random by default.
    var token: String?
    /// Join a fleet (`--redis URL --fleet NAME --instance ID`): the probe's inspector also publishes to it.
    var redis: String?
    var fleet = "keyscope"
    var instance: String?

    static let usage = """
        usage: KeyscopeHostProbe --state DIR [--port N | --no-server] [--public DIR] [--recordings DIR]
                                 [--record FILE] [--interval-ms N] [--token T]
                                 [--redis URL [--fleet NAME] [--instance ID]]
        """

    init(_ arguments: [String]) throws(ProbeUsageError) {
        var state: URL?
        var rest = arguments[...]
        func value(_ option: String) throws(ProbeUsageError) -> String {
            guard let text = rest.popFirst(), !text.isEmpty else { throw ProbeUsageError("\(option) needs a value") }
            return text
        }
        func number(_ option: String) throws(ProbeUsageError) -> Int {
            let text = try value(option)
            guard let parsed = Int(text), parsed >= 0 else {
                throw ProbeUsageError("\(option) needs a whole number ≥ 0, not \(text)")
            }
            return parsed
        }
        stateDirectory = URL(fileURLWithPath: "/")
        while let argument = rest.popFirst() {
            switch argument {
            case "--state": state = URL(fileURLWithPath: try value(argument), isDirectory: true)
            case "--port": port = try number(argument)
            case "--no-server": port = nil
            case "--public": publicDirectory = URL(fileURLWithPath: try value(argument), isDirectory: true)
            case "--recordings": recordingsDirectory = URL(fileURLWithPath: try value(argument), isDirectory: true)
            case "--record": recordFile = URL(fileURLWithPath: try value(argument))
            case "--interval-ms": interval = .milliseconds(try number(argument))
            case "--token": token = try value(argument)
            case "--redis": redis = try value(argument)
            case "--fleet": fleet = try value(argument)
            case "--instance": instance = try value(argument)
            default: throw ProbeUsageError("unknown argument \(argument)")
            }
        }
        guard let state else { throw ProbeUsageError("--state DIR is required") }
        stateDirectory = state
    }
}

/// A command line the probe cannot act on: it exits 64 (EX_USAGE) with the message and the usage on stderr.
struct ProbeUsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
