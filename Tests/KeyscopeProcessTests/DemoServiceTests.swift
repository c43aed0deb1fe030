import Foundation
import KeyscopeCore
import Synchronization
import Testing

@testable import keyscope

/// The demo service's engine, in process: each test has its own registry and state directory. Most are driven
/// step by step; the few that need the background task wait on the changes themselves.
@Suite("Demo service")
struct DemoServiceTests {
    @Test("start and stop are idempotent, and no change is made after stop returns")
    func startStop() async throws {
        let demo = try DemoHarness(rate: 200)
        defer { demo.remove() }
        demo.service.start()
        demo.service.start()
        #expect(demo.service.isRunning)
        try await demo.waitForChanges(demo.service.changes + 20)

        await demo.service.stop()
        await demo.service.stop()
        #expect(!demo.service.isRunning)
        let after = demo.service.changes
        let state = demo.snapshots()
        // Long enough for a running service to make some 60 changes at this rate.
        try await Task.sleep(for: .milliseconds(300))
        #expect(demo.service.changes == after)
        #expect(demo.snapshots() == state)

        demo.service.start()
        try await demo.waitForChanges(after + 5)
        async let first: Void = demo.service.stop()
        async let second: Void = demo.service.stop()
        _ = await (first, second)
        #expect(!demo.service.isRunning)
    }

    @Test("the rate is roughly respected, and a new rate applies while running")
    func rate() async throws {
        let demo = try DemoHarness(rate: 50)
        defer { demo.remove() }
        demo.service.start()
        // Counts over a window of at least 1 s (a busy machine may make it longer: the upper bound follows it).
        let atFifty = try await demo.changes(during: .seconds(1))
        #expect(atFifty.count >= 10 && atFifty.count <= 200 * atFifty.seconds, "\(atFifty) at 50/s")

        demo.service.rate = 1
        #expect(demo.service.rate == 1)
        let atOne = try await demo.changes(during: .seconds(2))
        #expect(atOne.count <= 2 + 2 * atOne.seconds, "\(atOne) at 1/s")
        await demo.service.stop()

        demo.service.rate = 0
        #expect(demo.service.rate == 1, "clamped to at least 1")
        demo.service.rate = 1_000_000
        #expect(demo.service.rate == DemoConfiguration.rates.upperBound)
    }

    @Test("every labelled subscription is live and has received values")
    func subscriptions() throws {
        let demo = try DemoHarness()
        defer { demo.remove() }
        var steps = 0
        while steps < 3000, !demo.hasAllSubscriptionsDelivered() {
            demo.service.step()
            steps += 1
        }
        let infos = demo.registry.stores.flatMap(\.subscriptions)
        let expected: [(label: String, store: String, path: String)] = [
            (DemoLabel.cartBadge, "app/memory", "cart.items"),
            (DemoLabel.checkoutButton, "app/memory", "cart.total"),
            (DemoLabel.profileHeader, "app/memory", "user.name"),
            (DemoLabel.sessionTimer, "app/memory", "session.pageViews"),
            (DemoLabel.promoBanner, "app/memory", "cart.promo"),
            (DemoLabel.themeProvider, demo.settingsID.description, "settings.theme"),
            (DemoLabel.stepIndicator, "scenario:checkout/memory", "checkout.step"),
        ]
        #expect(Set(expected.map(\.label)) == Set(DemoLabel.all))
        for (label, store, path) in expected {
            let info = try #require(infos.first { $0.label == label }, "no live subscription labelled \(label)")
            #expect(info.storeID.description == store, "\(label)")
            #expect(info.keyPaths.map(\.description) == [path], "\(label)")
            // The first delivery is the value at subscription time; a second one means it heard a change.
            #expect(info.deliveries > (label == DemoLabel.promoBanner ? 0 : 1), "\(label): \(info.deliveries)")
        }
        #expect(demo.registry.store(StoreID("app/memory")!)?.get("cart.promo") == nil, "cart.promo stays missing")
    }

    @Test("the same seed makes the same changes, step by step; another seed does not")
    func deterministic() throws {
        let a = try DemoHarness(seed: 7)
        let b = try DemoHarness(seed: 7)
        let c = try DemoHarness(seed: 8)
        defer {
            for demo in [a, b, c] { demo.remove() }
        }
        for _ in 0..<400 {
            a.service.step()
            b.service.step()
            c.service.step()
        }
        let recordA = a.recorded()
        #expect(recordA.count > 400)
        #expect(recordA == b.recorded())
        #expect(recordA != c.recorded())
    }

    @Test("the story uses every kind of write, and a checkout ends in an order")
    func kindsOfWrites() throws {
        let demo = try DemoHarness(seed: 3)
        defer { demo.remove() }
        for _ in 0..<600 { demo.service.step() }
        let changes = demo.changes()
        let singles = changes.filter { $0.transactionID == nil }.flatMap(\.patches)
        for op in StorePatch.Operation.allCases {
            #expect(singles.contains { $0.op == op }, "a single \(op)")
        }
        #expect(changes.contains { $0.transactionID != nil && $0.patches.count > 1 }, "a transaction")

        let addsItem = changes.contains { change in
            change.transactionID != nil && change.patches.count == 2 && change.patches[0].op == .insert
                && change.patches[0].keyPath.description.hasPrefix("cart.items[")
                && change.patches[1].keyPath == "cart.total"
        }
        #expect(addsItem, "an item added with its total in one transaction")
        let order = try #require(
            changes.first { change in change.patches.contains { $0.op == .insert && $0.keyPath == "orders[0]" } })
        #expect(order.transactionID != nil)
        #expect(order.patches.contains { $0.keyPath == "cart.items" && $0.newValue == [] })
        #expect(order.patches.contains { $0.keyPath == "cart.total" && $0.newValue == 0.0 })
        #expect(demo.events().contains { $0 == "removed scenario:checkout/memory" })
        #expect(demo.events().filter { $0 == "registered scenario:checkout/memory" }.count >= 2, "started again")
    }

    @Test("components render what their subscriptions deliver")
    func screen() throws {
        let demo = try DemoHarness(seed: 11)
        defer { demo.remove() }
        for _ in 0..<200 { demo.service.step() }
        let app = try #require(demo.registry.store(StoreID("app/memory")!))
        let quantities = (app.get("cart.items")?.arrayValue ?? []).compactMap { $0["quantity"]?.integerValue }
        let count = quantities.reduce(0, +)
        #expect(demo.service.screen[DemoLabel.cartBadge] == (count == 0 ? "" : "\(count)"))
        let views = app.get("session.pageViews")?.integerValue ?? 0
        #expect(demo.service.screen[DemoLabel.sessionTimer] == "\(views) pages")
    }

    @Test("the settings store is saved on stop and counts launches across services")
    func persistedSettings() async throws {
        let directory = try TemporaryDemoDirectory()
        defer { directory.remove() }
        for launch in Int64(1)...2 {
            let registry = StoreRegistry()
            let service = DemoService(
                configuration: DemoConfiguration(rate: 10, seed: 1, stateDirectory: directory.url),
                registry: registry)
            service.step()
            await service.stop()
            let saved = try StoreValue(jsonData: Data(contentsOf: service.configuration.stateFile))
            #expect(saved["root"]?["launches"] == .integer(launch))
            #expect(saved["version"] == "2.0.0")
            #expect(saved["root"]?["settings"]?["theme"]?["accent"]?.typeName == "color")
            #expect(saved["root"]?["api"]?["baseURL"]?.typeName == "url")
        }
    }
}

/// The CheckoutButton's amount, written without Foundation's formatter, for totals in whole cents as the cart makes
/// them (and the float noise of their sums).
@Suite struct DemoAmountTests {
    @Test(arguments: [0.0, 0.07, 0.5, 12.3, 19.99, 100.0, 3.2 * 3, 6.5 + 9.5 + 11.99, 1_234_567.89, -4.5])
    func writesTwoDecimalsLikePrintf(value: Double) {
        #expect(DemoComponents.amount(value) == String(format: "%.2f", value))
    }
}
