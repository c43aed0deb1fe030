import KeyscopeCore

/// Where the checkout scenario is: closed (no store), or at one of its steps.
struct CheckoutProgress {
    enum Step {
        case closed, started, addressed, paying, paid, confirmed, done
    }

    var step = Step.closed
    var orders = 1000
    var declines = 0
}

/// The checkout flow in `scenario:checkout/memory`: a fresh scenario store per order, walked through its steps with
/// merges, single writes and transactions, then ended with `endScenario` (so the store leaves the registry).
extension DemoService {
    private static let streets = ["12 Rue Oberkampf", "4 Harbour Lane", "77 Lindenstraße", "9 Via Roma"]
    private static let cities = [("Paris", "75011"), ("Bristol", "BS1 4DJ"), ("Berlin", "10117"), ("Rome", "00184")]
    private static let methods = ["card", "paypal", "apple-pay"]

    private var checkoutStore: KeyValueStore {
        factory.store(scope: .scenario(id: "checkout"), storage: .memory)
    }

    func stepCheckout() {
        do {
            try advanceCheckout()
        } catch {
            Console.error("demo: a checkout change was refused: \(error)")
        }
    }

    private func advanceCheckout() throws {
        switch checkout.step {
        case .closed:
            checkout.orders += 1
            checkout.declines = 0
            checkoutStore.merge("checkout", ["order": .string("A-\(checkout.orders)"), "step": "address"])
            checkout.step = .started
        case .started:
            let city = random.pick(Self.cities)
            checkoutStore.merge(
                "checkout.address",
                ["street": .string(random.pick(Self.streets)), "city": .string(city.0), "zip": .string(city.1)])
            checkout.step = .addressed
        case .addressed:
            checkoutStore.set("checkout.step", "payment")
            checkout.step = .paying
        case .paying:
            try tryPayment()
        case .paid:
            checkoutStore.set("checkout.step", "confirmed")
            checkout.step = .confirmed
        case .confirmed:
            try checkoutStore.transaction { tx in
                try tx.set("checkout.step", "done")
                try tx.remove("checkout.address")
                try tx.set("receipt", ["order": .string("A-\(checkout.orders)"), "emailed": true])
            }
            checkout.step = .done
        case .done:
            factory.endScenario("checkout")
            checkout.step = .closed
        }
    }

    /// A transaction that records an attempt; the first two may be declined.
    private func tryPayment() throws {
        let declined = checkout.declines < 2 && random.chance(30)
        let method = random.pick(Self.methods)
        let store = checkoutStore
        let attempts = (store.get("payment.attempts")?.integerValue ?? 0) + 1
        let events = store.get("checkout.events")?.arrayValue?.count ?? 0
        try store.transaction { tx in
            try tx.merge("payment", ["method": .string(method), "attempts": .integer(attempts)])
            if events == 0 { try tx.set("checkout.events", []) }
            try tx.insert(
                StoreKeyPath(segments: [.key("checkout"), .key("events"), .index(events)]),
                .string(declined ? "payment declined (\(method))" : "payment authorized (\(method))"))
        }
        if declined {
            checkout.declines += 1
        } else {
            checkout.step = .paid
        }
    }
}
