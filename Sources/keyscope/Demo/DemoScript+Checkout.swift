import KeyscopeCore
import Logging

/// Where the checkout scenario is: closed (no store), or at one of its stages.
struct CheckoutProgress {
    /// What the next checkout change does.
    enum Stage {
        case closed, enterAddress, showShipping, chooseShipping, showPayment, submitPayment, answerPayment, placeOrder
    }

    var stage = Stage.closed
    /// The open checkout's store, `scenario:checkout/memory`.
    var store: KeyValueStore?
    /// The last order number given out.
    var orders = 1000
    var declines = 0
}

/// The checkout flow in `scenario:checkout/memory`: a fresh scenario store per checkout, walked through its steps
/// (address → shipping → payment → confirmation) with single writes, merges, inserts and transactions; the order is
/// then placed in `app/memory` (one transaction clears the cart and records the order) and the scenario is ended, so
/// its store leaves the registry until the next checkout.
extension DemoScript {
    static let checkoutScenario = "checkout"
    private static let step: StoreKeyPath = "checkout.step"
    private static let payment: StoreKeyPath = "checkout.payment"
    private static let events: StoreKeyPath = "checkout.events"
    private static let orders: StoreKeyPath = "orders"
    // Parsed once: the demo runs at up to 100,000 changes/s, where parsing a literal path per write shows.
    private static let checkout: StoreKeyPath = "checkout"
    private static let address: StoreKeyPath = "checkout.address"
    private static let shipping: StoreKeyPath = "checkout.shipping"
    private static let selectedShipping: StoreKeyPath = "checkout.shipping.selected"
    private static let orderID: StoreKeyPath = "checkout.orderId"
    /// How many orders `app/memory` keeps in `orders`.
    private static let keptOrders = 5

    /// One checkout change. A refused one (the inspector may have reshaped the store) abandons the checkout.
    func stepCheckout() {
        do {
            try advanceCheckout()
        } catch {
            logger.warning("checkout abandoned after a refused change", metadata: ["error": "\(error)"])
            endCheckout()
        }
    }

    private func advanceCheckout() throws {
        guard let store = checkout.store else {
            // Nothing to buy yet: the shopper keeps shopping instead.
            if app.get(Self.cartItems)?.arrayValue?.isEmpty ?? true { return try stepCart() }
            return try openCheckout()
        }
        switch checkout.stage {
        case .closed, .enterAddress:
            let address = random.pick(DemoCatalog.addresses)
            try store.apply(
                .merge(
                    Self.address,
                    [
                        "street": .string(address.street), "city": .string(address.city),
                        "zip": .string(address.zip), "country": .string(address.country),
                    ]))
            checkout.stage = .showShipping
        case .showShipping:
            try store.apply([
                .set(Self.step, "shipping"),
                .set(Self.shipping, ["options": .array(DemoCatalog.shippingOptions), "selected": "standard"]),
            ])
            checkout.stage = .chooseShipping
        case .chooseShipping:
            // The shopper changes their mind about the preselected standard option.
            let option = random.pick(Array(DemoCatalog.shippingOptions.dropFirst()))
            try store.apply(.set(Self.selectedShipping, option["id"] ?? "standard"))
            checkout.stage = .showPayment
        case .showPayment:
            let method = random.pick(DemoCatalog.paymentMethods)
            try store.transaction { tx in
                try tx.set(Self.step, "payment")
                try tx.set(Self.payment, ["method": .string(method), "status": "pending", "attempts": 0])
            }
            checkout.stage = .submitPayment
        case .submitPayment:
            let attempts = (store.get(Self.payment)?["attempts"]?.integerValue ?? 0) + 1
            try store.apply(.merge(Self.payment, ["status": "authorizing", "attempts": .integer(attempts)]))
            checkout.stage = .answerPayment
        case .answerPayment:
            try answerPayment(in: store)
        case .placeOrder:
            // A cart emptied while paying (in another tab, say) has nothing to order: the checkout is abandoned.
            if app.get(Self.cartItems)?.arrayValue?.isEmpty == false { try placeOrder(from: store) }
            endCheckout()
        }
    }

    /// A new scenario store, the StepIndicator mounted on it, and the checkout's first state in one `set`.
    private func openCheckout() throws {
        let store = factory.store(scope: .scenario(id: Self.checkoutScenario), storage: .memory)
        checkout = CheckoutProgress(stage: .enterAddress, store: store, orders: checkout.orders)
        components.mountStepIndicator(on: store)
        let cart = app.get(Self.cart)
        let checkoutID = identifier("co")
        try store.apply(
            .set(
                Self.checkout,
                [
                    "id": .string(checkoutID), "step": "address",
                    "steps": .array(DemoCatalog.checkoutSteps.map(StoreValue.string)),
                    "startedAt": .string(clock.timestamp),
                    "itemCount": .integer(Int64(cart?["items"]?.arrayValue?.count ?? 0)),
                    "subtotal": cart?["total"] ?? 0.0,
                    "address": ["name": app.get(Self.userName) ?? "Guest"],
                    "events": [],
                ]))
    }

    /// The payment provider's answer: declined (at most twice per checkout), or authorized with an order id.
    private func answerPayment(in store: KeyValueStore) throws {
        let events = store.get(Self.events)?.arrayValue?.count ?? 0
        if checkout.declines < 2, random.chance(30) {
            let reason = random.pick(DemoCatalog.declineReasons)
            try store.transaction { tx in
                try tx.merge(Self.payment, ["status": "declined", "declineReason": .string(reason)])
                if !tx.exists(Self.events) { try tx.set(Self.events, []) }
                try tx.insert(Self.events.appending(index: events), .string("payment declined: \(reason)"))
            }
            checkout.declines += 1
            checkout.stage = .submitPayment
            return
        }
        checkout.orders += 1
        let orderID = "ORD-\(checkout.orders)"
        try store.transaction { tx in
            try tx.merge(Self.payment, ["status": "authorized"])
            try tx.set(Self.step, "confirmation")
            try tx.set(Self.orderID, .string(orderID))
        }
        checkout.stage = .placeOrder
    }

    /// One transaction in `app/memory`: the cart is emptied and the order recorded (the oldest kept one dropped).
    private func placeOrder(from store: KeyValueStore) throws {
        let cart = app.get(Self.cart)
        let order: StoreValue = [
            "id": store.get(Self.orderID) ?? "ORD-?",
            "total": cart?["total"] ?? 0.0,
            "itemCount": .integer(Int64(cart?["items"]?.arrayValue?.count ?? 0)),
            "shipping": store.get(Self.selectedShipping) ?? "standard",
            "placedAt": .string(clock.timestamp),
        ]
        try app.transaction { tx in
            try tx.set(Self.cartItems, [])
            try tx.remove(Self.cartCoupon)
            try tx.set(Self.cartTotal, 0.0)
            if !tx.exists(Self.orders) { try tx.set(Self.orders, []) }
            try tx.insert(Self.orders.appending(index: 0), order)
            let count = tx.get(Self.orders)?.arrayValue?.count ?? 0
            if count > Self.keptOrders { try tx.remove(Self.orders.appending(index: count - 1)) }
        }
    }

    /// Unmounts the StepIndicator and ends the scenario: its store leaves the factory and the registry.
    func endCheckout() {
        guard checkout.store != nil else { return }
        components.unmountStepIndicator()
        factory.endScenario(Self.checkoutScenario)
        checkout = CheckoutProgress(orders: checkout.orders)
    }
}
