// KeyscopeHostProbe: a small service that embeds the inspector the way an app does (`Inspector.start`) and keeps
// doing its own work whatever happens to the inspector. The load tests (Tests/load) start it, break its inspector
// (a port already taken, its Public/ directory deleted, a full disk under its recordings) and kill it -9 in a loop
// while it writes its file store, its tunables and a recording. Its command line: `ProbeOptions.usage`, each option
// documented in ProbeOptions.swift.
//
// stdout, one line each, written whole:
//   inspector URL        the inspector listens (its dashboard URL with the token)
//   inspector none       it could not start; the reason is in the log (stderr); the work goes on
//   recording FILE       --record: the recording's header is written
//   work N               one step of the probe's own work (see ProbeWork.swift), forever
// The log (swift-log, stderr) is the service's own: the inspector, its recorder and its tunables log there.
// Exit codes: 64 bad command line, 70 the probe's own store or tunables could not be opened.
import Foundation
import KeyscopeCore
import KeyscopeFleet
import KeyscopeInspector
import KeyscopeRecording
import KeyscopeServer
import KeyscopeTunables
import Logging

LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = .info
    return handler
}
let logger = Logger(label: "keyscope.probe")

let options: ProbeOptions
do {
    options = try ProbeOptions(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("KeyscopeHostProbe: \(error.message)\n\(ProbeOptions.usage)\n".utf8))
    exit(64)
}

let store: KeyValueStore
let tunables: Tunables
do {
    try FileManager.default.createDirectory(at: options.stateDirectory, withIntermediateDirectories: true)
    let factory = DefaultStoreFactory(version: .initial)
    store = factory.store(storage: .file(url: options.stateDirectory.appendingPathComponent("state.json")))
    tunables = try ProbeTunables.open(in: options.stateDirectory)
} catch {
    logger.critical("the probe's own data could not be opened: \(error)")
    exit(70)
}

// The inspector, as an app starts it: a failure is the inspector's, never the service's.
var hub: InspectorHub?
if let port = options.port {
    var serverOptions = ServerOptions()
    serverOptions.port = port
    serverOptions.publicDirectory = options.publicDirectory
    serverOptions.token = options.token
    serverOptions.writesServerRecord = false
    serverOptions.name = "keyscope host probe"
    do {
        let recordings = options.recordingsDirectory.map { RecordingLibrary(folder: $0) }
        var features: [any InspectorFeature] = [TunablesFeature(tunables), RecordingsFeature(recordings)]
        if let redis = options.redis {
            // A service joins its fleet the way docs/fleet.md shows: one more feature of its inspector.
            do {
                features.append(
                    FleetMember(
                        try FleetOptions(
                            redis: redis, fleet: options.fleet, instance: options.instance,
                            name: "keyscope host probe")))
            } catch {
                logger.error("not joining the fleet: \(error); the inspector goes on without it")
            }
        }
        if let handle = try Inspector.start(options: serverOptions, features: features, force: true) {
            hub = handle.server.hub
            ProbeOutput.line("inspector \(handle.dashboardURL ?? "")")
        }
    } catch {
        // Inspector.start has logged why; the service goes on without it.
        ProbeOutput.line("inspector none")
    }
} else {
    let bare = InspectorHub(registry: .shared, features: [TunablesFeature(tunables)])
    bare.start()
    hub = bare
}

var recorder: HubRecorder?
if let file = options.recordFile, let hub {
    do {
        recorder = try HubRecorder(hub: hub, to: file)
        ProbeOutput.line("recording \(file.path)")
    } catch {
        logger.error("the recording could not start: \(error)")
    }
}

ProbeWork(store: store, tunables: tunables, interval: options.interval, logger: logger).run()
