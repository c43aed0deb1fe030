import ArgumentParser
import Foundation
import KeyscopeCore
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `keyscope demo`: a small service whose stores change on their own, each change printed as it happens.
///
/// ```
/// $ keyscope demo --rate 10 --duration 5 --seed 42
/// ```
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run a demo service whose stores change on their own, and print every change.",
        discussion: """
            The demo is a small shop (DemoService) whose stores a DefaultStoreFactory makes (data version 2.0.0): \
            app/memory holds the cart (items with sku, title, price and quantity, the total, sometimes a coupon), \
            the signed-in user, the session and the last orders; the settings (theme with an accent color, feature \
            flags, the API's base URL, the toolbar's height, recent searches, a launch count) are persisted to \
            app/file:<state dir>/state.json; each checkout walks scenario:checkout/memory from address to \
            confirmation, places the order in one transaction and ends the scenario. The stores change at --rate \
            changes per second, spread evenly, with single writes, array inserts and removes, merges and \
            transactions. Components subscribe with labels (CartBadge, CheckoutButton, ProfileHeader, \
            SessionTimer, PromoBanner, ThemeProvider, StepIndicator), as views would.

            An observer attached with StoreRegistry.shared.observe prints one line per change: the time, the \
            store id, "txn" and a short transaction id for transactions, then the patches, for example
              set cart.total 90.5 → 100.4
              insert cart.items[2] {"price":3.2,"quantity":1,"sku":"CHO-DK…Dark chocolate 85%"}
              remove cart.coupon (was {"code":"SPRING10","percentOff":10})
            Values are compact JSON with sorted keys; long ones are elided with "…". The CheckoutButton's \
            publisher (on cart.total) prints when the total crosses 100. Registrations, removals and subscription \
            changes are printed as they happen too.

            The same --seed makes the same changes in the same order, given the same starting state file. \
            Ctrl-C stops the demo and prints a summary; so does reaching --duration. Library logs go to stderr.
            """
    )

    @Option(name: .long, help: ArgumentHelp("Changes per second, 1 to 100000.", valueName: "N"))
    var rate: Int = 5

    @Option(
        name: .long,
        help: ArgumentHelp("Stop after this many seconds (default: run until Ctrl-C).", valueName: "SECONDS"))
    var duration: Double?

    @Option(
        name: .long,
        help: ArgumentHelp("Seed for the random changes (default: a random seed, printed at start).", valueName: "N"))
    var seed: UInt64?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Directory of the persisted store's state.json (default: demo/ in the state folder, where serve --demo "
                + "keeps it: $KEYSCOPE_HOME, else $XDG_STATE_HOME/keyscope, else ~/.local/state/keyscope).",
            valueName: "PATH"))
    var stateDir: String?

    @Option(name: .long, help: "Level of the library's log messages on stderr.")
    var logLevel: LogLevelOption = .warning

    func validate() throws {
        guard rate >= DemoConfiguration.rates.lowerBound else {
            throw ValidationError("--rate must be at least 1 change per second; got \(rate).")
        }
        guard rate <= DemoConfiguration.rates.upperBound else {
            throw ValidationError(
                "--rate must be at most \(DemoConfiguration.rates.upperBound) changes per second; got \(rate).")
        }
        if let duration {
            guard duration.isFinite, duration > 0 else {
                throw ValidationError(
                    "--duration must be a positive number of seconds; got \(Self.secondsText(duration)).")
            }
        }
    }

    func run() async throws {
        logLevel.bootstrapLogging()
        let directory: URL
        do {
            directory = try stateDir.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? DemoStateFolder.prepare()
        } catch {
            throw CommandFailure(
                "could not make the demo's state folder: \(error.localizedDescription); pass --state-dir, or set "
                    + "KEYSCOPE_HOME or XDG_STATE_HOME to a folder you can write")
        }
        let configuration = DemoConfiguration(
            rate: rate,
            seed: seed ?? UInt64.random(in: 0...UInt64(UInt32.max)),
            stateDirectory: directory,
            duration: duration.map { Duration.seconds($0) }
        )
        let until = duration.map { "for \(Self.secondsText($0)) s" } ?? "until Ctrl-C"
        Console.line(
            "keyscope demo: \(configuration.rate) changes/s \(until), seed \(configuration.seed); "
                + "state file \(configuration.stateFile.path)")

        // Listen before anything runs, so that an early Ctrl-C still ends in a summary.
        let stop = StopRequest()
        let watcher = SignalWatcher([SIGINT, SIGTERM]) { _ in stop.request() }
        let task = Task {
            await DemoService(configuration: configuration, reporter: DemoReporter(threshold: Self.threshold)).run()
        }
        stop.attach(task)
        let summary = await task.value
        watcher.stop()

        let seconds =
            Double(summary.elapsed.components.seconds)
            + Double(summary.elapsed.components.attoseconds) / 1e18
        Console.line(
            (summary.interrupted ? "interrupted: " : "done: ")
                + "\(summary.changes) changes to \(summary.stores.count) stores in "
                + String(format: "%.1f", seconds) + " s (\(summary.stores.joined(separator: ", ")))")
    }
}

extension DemoCommand {
    /// The cart total whose crossing the CheckoutButton's publisher announces.
    static let threshold = 100.0

    /// `2` for 2.0, `0.5` for 0.5.
    static func secondsText(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    }
}

/// The swift-log levels as a command-line value (`--log-level debug`).
enum LogLevelOption: String, CaseIterable, ExpressibleByArgument {
    case trace, debug, info, notice, warning, error, critical

    var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .warning }

    /// Sends every logger of the process to standard error at this level (once per process, as swift-log wants).
    func bootstrapLogging() {
        let level = self.level
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
