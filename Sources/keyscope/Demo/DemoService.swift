import Foundation
import KeyscopeCore
import Logging
import Synchronization

/// A small shop whose stores change on their own: what `keyscope demo` prints and `keyscope serve --demo` shows in
/// the inspector.
///
/// Stores: `app/memory` (cart, signed-in user, session, orders), the settings persisted to
/// `app/file:<state dir>/state.json`, and `scenario:checkout/memory` for each checkout (ended and started again);
/// with ``DemoConfiguration/catalogKeys``, also the still `scenario:catalog/memory` (``LargeCatalog``).
/// Labelled subscriptions (``DemoLabel``) listen the way views would. Every change goes through the public store API
/// (single writes, array inserts and removes, merges, transactions), so it reaches the registry's observers, and the
/// inspector, like any app's. See ``DemoScript`` for the story.
///
/// In the background (`keyscope serve --demo`):
/// ```swift
/// let demo = DemoService(configuration: DemoConfiguration(rate: 20, seed: 42))
/// demo.start()           // returns at once; changes are made on a thread of the service's own
/// demo.rate = 50         // takes effect at once
/// await demo.stop()      // idempotent; when it returns, no more changes are made
/// ```
/// In the foreground (`keyscope demo`), printing every change:
/// ```swift
/// let summary = await DemoService(configuration: configuration, reporter: DemoReporter(threshold: 100)).run()
/// ```
/// Tests drive it with ``step()`` instead of the clock.
final class DemoService: Sendable {
    let configuration: DemoConfiguration
    /// The factory that made the stores; its registry is the one given to `init`.
    let factory: DefaultStoreFactory
    /// What the components last rendered (see ``DemoComponents``).
    let screen: DemoScreen
    /// The large catalog store, when ``DemoConfiguration/catalogKeys`` asked for one. Nothing changes it on its own.
    let catalog: KeyValueStore?

    private let script: Mutex<DemoScript>
    private let settings: KeyValueStore
    private let tally: DemoTally
    private let counting: ObservationToken
    private let printing: ObservationToken?
    private let control: Mutex<Control>

    /// The background run's bookkeeping.
    private struct Control {
        var rate: Int
        /// The run changing the stores, while one is; its thread clears this itself when it ends.
        var run: DemoRun?
        var runs = 0
    }

    /// Opens the stores and fills them (synchronously: a few writes and the settings file's load), and mounts the
    /// components. Nothing changes on its own until ``start()`` or ``run()``.
    /// - Parameters:
    ///   - configuration: rate, seed, state directory, duration.
    ///   - registry: where the stores are registered; the inspector observes ``StoreRegistry/shared``. Tests pass a
    ///     fresh one. (The ids are fixed, so two services in one registry would share their stores.)
    ///   - reporter: prints every activity of the service's stores (`keyscope demo`); `nil` prints nothing.
    init(configuration: DemoConfiguration, registry: StoreRegistry = .shared, reporter: DemoReporter? = nil) {
        self.configuration = configuration
        self.control = Mutex(Control(rate: DemoConfiguration.clamped(configuration.rate)))
        let factory = DefaultStoreFactory(version: DemoScript.dataVersion, registry: registry)
        self.factory = factory
        let tally = DemoTally(storeIDs: [
            StoreID(scope: .app, storage: .memory),
            StoreID(scope: .app, storage: .file(url: configuration.stateFile)),
            StoreID(scope: .scenario(id: DemoScript.checkoutScenario), storage: .memory),
        ])
        self.tally = tally
        // Listen before the stores exist, so that their registration is counted and printed too.
        self.counting = registry.observe { tally.record($0) }
        self.printing = reporter.map { reporter in
            registry.observe { activity in if tally.counts(activity) { reporter.handle(activity) } }
        }
        self.catalog = Self.registerCatalog(configuration, registry: registry)
        let script = DemoScript(configuration: configuration, factory: factory, reporter: reporter)
        self.settings = script.settings
        self.screen = script.components.screen
        self.script = Mutex(script)
    }

    /// Changes per second, spread evenly. Setting it while running takes effect at once, counted from the last
    /// change made; values outside ``DemoConfiguration/rates`` are clamped.
    var rate: Int {
        get { control.withLock { $0.rate } }
        set {
            let run = control.withLock { control in
                control.rate = DemoConfiguration.clamped(newValue)
                return control.run
            }
            run?.nudge()
        }
    }

    /// Whether the service's thread is changing the stores.
    var isRunning: Bool { control.withLock { $0.run != nil } }

    /// Changes made to the service's stores so far, its set-up included (a transaction counts once).
    var changes: Int { tally.changes }

    /// Makes one change now, on the caller's thread: the unit of the story, which ``start()`` paces at ``rate``.
    /// Safe alongside a running service (changes are made one at a time).
    func step() {
        script.withLock { $0.step() }
    }

    /// Starts changing the stores on a thread of the service's own (`keyscope-demo`, so that busy Swift
    /// concurrency threads never slow it) and returns at once. Does nothing while already running. With a
    /// ``DemoConfiguration/duration``, the thread ends by itself after that long.
    func start() {
        control.withLock { control in
            guard control.run == nil else { return }
            control.runs += 1
            let run = DemoRun(id: control.runs)
            control.run = run
            // The ticks and the end count from the same instant, so that a run of a given duration makes the same
            // number of changes however late its thread starts.
            let began = ContinuousClock.now
            let end = configuration.duration.map { began + $0 }
            let thread = Thread { [self] in changeStores(run, from: began, until: end) }
            thread.name = "keyscope-demo"
            thread.start()
        }
    }

    /// Stops the changes and waits for the thread's last one, then saves the settings store: when it returns, the
    /// service makes no more changes (until ``start()`` again). Does nothing when not running; safe to call more than
    /// once, and from several tasks at a time. The stores and subscriptions stay as they are.
    func stop() async {
        let run = control.withLock { $0.run }
        run?.requestStop()
        await run?.finished()
        settings.flush()
    }

    /// Runs in the foreground: starts, waits for the configured duration (or until the calling task is cancelled,
    /// for Ctrl-C), stops, saves, stops printing, and returns the summary. For `keyscope demo`.
    func run() async -> DemoSummary {
        let clock = ContinuousClock()
        let began = clock.now
        start()
        let run = control.withLock { $0.run }
        await withTaskCancellationHandler {
            await run?.finished()
        } onCancel: {
            run?.requestStop()
        }
        if let duration = configuration.duration, !Task.isCancelled {
            try? await Task.sleep(until: began + duration, clock: clock)
        }
        let interrupted = Task.isCancelled
        await stop()
        printing?.cancel()
        return DemoSummary(
            changes: tally.changes, stores: tally.stores, elapsed: clock.now - began, interrupted: interrupted)
    }

    /// The run's thread: one ``step()`` per tick of a ``DemoPacer`` that follows ``rate``, made in batches of up to
    /// ``DemoPacer/batchSize`` between naps, until stopped or `end`. Stop requests and rate changes are looked at
    /// between batches, so a batch is short (a millisecond's worth of changes).
    private func changeStores(_ run: DemoRun, from began: ContinuousClock.Instant, until end: ContinuousClock.Instant?)
    {
        let clock = ContinuousClock()
        var pacer = DemoPacer(rate: rate, start: began)
        while !run.stopRequested {
            let now = clock.now
            pacer.setRate(rate)
            pacer.dropMissedTicks(now: now)
            if let end, pacer.nextTick >= end { break }
            let ended = end.map { now >= $0 } ?? false
            if pacer.nextWake > now, !ended {
                run.nap(until: end.map { min(pacer.nextWake, $0) } ?? pacer.nextWake)
                continue
            }
            // A whole batch is due (or the end came): make it. Ticks at or after `end` are never made, so a run of a
            // given duration makes the same number of changes however its naps fall.
            let cutoff = end.map { min(now, $0 - Self.instantResolution) } ?? now
            let count = min(pacer.dueTicks(at: cutoff), pacer.batchSize)
            for _ in 0..<count { step() }
            pacer.tick(count)
        }
        control.withLock { control in
            if control.run === run { control.run = nil }
        }
        run.finish()
    }

    /// Registers the large catalog with its whole content, so that the registration carries it (one entry with the
    /// root, as a store that was there when the inspector started) rather than a change of several megabytes.
    private static func registerCatalog(_ configuration: DemoConfiguration, registry: StoreRegistry) -> KeyValueStore? {
        guard configuration.catalogKeys > 0 else { return nil }
        let root = LargeCatalog.root(keys: configuration.catalogKeys, seed: configuration.seed)
        let store = KeyValueStore(
            id: LargeCatalog.storeID, version: DemoScript.dataVersion, root: root.objectValue ?? [:])
        do {
            try registry.register(store)
        } catch {
            Logger(label: "keyscope.demo").error(
                "could not register the catalog store", metadata: ["store": "\(store.id)", "error": "\(error)"])
        }
        return store
    }

    /// The smallest step between two instants: a tick `end - instantResolution` or earlier is before `end`.
    private static let instantResolution = Duration(secondsComponent: 0, attosecondsComponent: 1)
}
