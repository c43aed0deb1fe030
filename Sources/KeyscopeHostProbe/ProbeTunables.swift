import Foundation
import KeyscopeCore
import KeyscopeTunables

/// The probe's tunables: defaults written into `<state>/bundle/` as an app's bundle would ship them, the writable
/// copy at `<state>/live-constants.json`.
enum ProbeTunables {
    /// `counter` follows the probe's work; `label` is never changed (a file that lost it was half written).
    static let defaultsJSON = #"{"counter": 0, "label": "keyscope host probe"}"# + "\n"

    static func open(in directory: URL) throws -> Tunables {
        let bundle = directory.appendingPathComponent("bundle", isDirectory: true)
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let defaultsURL = bundle.appendingPathComponent(TunablesLocation.fileName)
        if !FileManager.default.fileExists(atPath: defaultsURL.path) {
            try AtomicFile.write(Data(defaultsJSON.utf8), to: defaultsURL)
        }
        return try Tunables(
            defaultsURL: defaultsURL, fileURL: directory.appendingPathComponent(TunablesLocation.fileName),
            watching: .off)
    }
}
