import Foundation

/// What a ``DemoService`` does: how fast it changes its stores, which random choices it makes, where it keeps its
/// persisted store, and for how long it runs.
///
/// ```swift
/// let configuration = DemoConfiguration(rate: 20, seed: 42, stateDirectory: URL(fileURLWithPath: "/tmp/demo"))
/// configuration.stateFile.path   // "/tmp/demo/state.json"
/// ```
struct DemoConfiguration: Sendable {
    /// The rate when none is given: lively on a dashboard, still readable in a change list.
    static let defaultRate = 20
    /// The rates a service accepts; others are clamped into this range. The top is what a dashboard is measured
    /// at (50,000/s in issue 4) with room to spare; above 1999/s changes are made in batches (see ``DemoPacer``).
    static let rates = 1...100_000

    /// Changes per second, spread evenly (one every `1/rate` s, or batched each millisecond above 1999/s); clamped
    /// into ``rates``.
    var rate: Int
    /// Seeds every random choice: the same seed (and the same starting state file) makes the same changes.
    var seed: UInt64
    /// Where the persisted settings store keeps `state.json` (created when missing).
    var stateDirectory: URL
    /// How long a run lasts; `nil` runs until ``DemoService/stop()`` (or, for ``DemoService/run()``, until the
    /// calling task is cancelled).
    var duration: Duration?
    /// Keys of the ``LargeCatalog`` registered as `scenario:catalog/memory` beside the demo's stores; 0 (the default)
    /// registers none. Clamped to ``LargeCatalog/maximumKeys``.
    var catalogKeys: Int

    /// - Parameters:
    ///   - rate: changes per second (default ``defaultRate``), clamped into ``rates``.
    ///   - seed: the seed of every random choice; by default a random one (read it back to print it).
    ///   - stateDirectory: the settings store's directory; by default ``defaultStateDirectory``.
    ///   - duration: how long ``DemoService/start()`` and ``DemoService/run()`` keep changing the stores.
    ///   - catalogKeys: the size of the large catalog store; 0 for none.
    init(
        rate: Int = defaultRate,
        seed: UInt64 = .random(in: 0...UInt64(UInt32.max)),
        stateDirectory: URL = defaultStateDirectory,
        duration: Duration? = nil,
        catalogKeys: Int = 0
    ) {
        self.rate = Self.clamped(rate)
        self.seed = seed
        self.stateDirectory = stateDirectory
        self.duration = duration
        self.catalogKeys = min(max(catalogKeys, 0), LargeCatalog.maximumKeys)
    }

    /// `<tmp>/keyscope-demo`.
    static var defaultStateDirectory: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("keyscope-demo", isDirectory: true)
    }

    /// The settings store's file: `<stateDirectory>/state.json` (its store id is `app/file:<that path>`).
    var stateFile: URL {
        stateDirectory.appendingPathComponent("state.json")
    }

    /// `rate` moved into ``rates``.
    static func clamped(_ rate: Int) -> Int {
        min(max(rate, rates.lowerBound), rates.upperBound)
    }
}

/// How a foreground ``DemoService/run()`` ended, for the summary line.
struct DemoSummary: Sendable {
    /// Changes made to the service's stores (transactions count once).
    var changes: Int
    /// The ids of the service's stores, in the order they first showed activity.
    var stores: [String]
    var elapsed: Duration
    /// Whether the run was cancelled (Ctrl-C) rather than reaching its duration.
    var interrupted: Bool
}
