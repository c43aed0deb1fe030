import KeyscopeCore
import KeyscopeInspector
import KeyscopeServer
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `keyscope-leaks [ROUNDS]`: starts and stops the inspector ROUNDS times (100 by default), each time on a new
/// registry with two stores and three WebSocket clients attached (see ``LeakRound``), and checks after each stop
/// that the hub, the registry and the stores were released. Built with `-sanitize=address` and run under
/// LeakSanitizer by `make leaks`, which reports any byte still allocated at exit that nothing points to.
@main
enum LeakCheck {
    static func main() {
        let rounds = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 100
        var logger = Logger(label: "keyscope.leaks")
        logger.logLevel = .warning
        var messages = 0
        for round in 1...rounds {
            do {
                messages += try LeakRound(round: round, logger: logger).run()
            } catch {
                print("keyscope-leaks: round \(round) failed: \(error)")
                // LeakSanitizer's report at exit ends the process before stdio would flush this line.
                fflush(nil)
                exit(1)
            }
        }
        print("keyscope-leaks: \(rounds) inspector starts and stops, 3 clients each, \(messages) messages received")
        fflush(nil)
    }
}
