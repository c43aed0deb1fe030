import Foundation
import KeyscopeCore

/// What `keyscope demo` was asked to do.
struct DemoConfiguration: Sendable {
    /// Changes per second, at least 1.
    var rate: Int
    /// How long to run; `nil` runs until cancelled (Ctrl-C).
    var duration: Duration?
    /// Seeds every random choice: the same seed (and the same starting file) makes the same changes.
    var seed: UInt64
    /// Where the persisted store keeps `state.json`.
    var stateDirectory: URL
}

/// How a demo run ended, for the summary line.
struct DemoSummary: Sendable {
    var changes: Int
    var stores: [String]
    var elapsed: Duration
    var interrupted: Bool
}

/// A small service whose stores change on their own: a shopping cart (`app/memory`), a checkout flow in a scenario
/// (`scenario:checkout/memory`) that is ended and started again, and persisted preferences (`app/file:…`).
///
/// ```swift
/// let summary = await DemoService(configuration: config).run()
/// ```
/// Every change goes through the public store API (single writes, inserts and removes in arrays, merges and
/// transactions) and reaches the printer through `StoreRegistry.shared.observe`, as it would reach the inspector.
final class DemoService {
    let configuration: DemoConfiguration
    let factory = DefaultStoreFactory(version: "1.0.0")
    let reporter = DemoReporter(threshold: 100)
    var random: SeededGenerator
    /// The checkout scenario's progress (see DemoService+Checkout.swift).
    var checkout = CheckoutProgress()

    let cart: KeyValueStore
    let prefs: KeyValueStore
    /// Keeps the observer attached while the service lives.
    private let observation: ObservationToken

    /// Attaches the observer, then opens and fills the app stores (so their registration is printed too).
    init(configuration: DemoConfiguration) {
        self.configuration = configuration
        self.random = SeededGenerator(seed: configuration.seed)
        self.observation = StoreRegistry.shared.observe { [reporter] activity in reporter.handle(activity) }
        self.cart = factory.store(scope: .app, storage: .memory)
        self.prefs = factory.store(
            scope: .app, storage: .file(url: Self.stateFile(in: configuration.stateDirectory)))
        setUpCart()
        setUpPrefs()
    }

    static func stateFile(in directory: URL) -> URL {
        directory.appendingPathComponent("state.json")
    }

    /// Runs until the configured duration has passed or the task is cancelled, then saves and reports.
    func run() async -> DemoSummary {
        let cartID = cart.id
        let subscription = cart.publisher(for: "cart", label: "demo-cart").sink { [reporter] value in
            reporter.cartChanged(value, store: cartID, label: "demo-cart")
        }

        let clock = ContinuousClock()
        let start = clock.now
        var tick = 0
        while !Task.isCancelled {
            let offset = Duration.seconds(1) * tick / configuration.rate
            if let duration = configuration.duration, offset >= duration { break }
            try? await Task.sleep(until: start + offset, clock: clock)
            if Task.isCancelled { break }
            step()
            tick += 1
        }
        if let duration = configuration.duration, !Task.isCancelled {
            try? await Task.sleep(until: start + duration, clock: clock)
        }
        let interrupted = Task.isCancelled

        subscription.cancel()
        prefs.flush()
        observation.cancel()
        return DemoSummary(
            changes: reporter.changes, stores: reporter.stores, elapsed: clock.now - start, interrupted: interrupted)
    }

    /// One change (or, when the checkout scenario ends, its removal), chosen by the seeded generator.
    private func step() {
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<45: stepCart()
        case 45..<80: stepCheckout()
        default: stepPrefs()
        }
    }
}
