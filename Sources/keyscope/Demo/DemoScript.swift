import Foundation
import KeyscopeCore
import Logging

/// The demo's story, one change at a time: a shopper fills a cart, browses, edits their profile, changes settings
/// and goes through checkout, all through the public store API.
///
/// ```swift
/// let script = DemoScript(configuration: configuration, factory: factory, reporter: nil)
/// script.step()   // one change, chosen by the seeded generator
/// ```
/// Stores (see DemoScript+Cart/Checkout/Session/Settings.swift):
/// - `app/memory`: `cart` (items {sku, title, price, quantity}, total, currency, sometimes a coupon), the signed-in
///   `user`, the `session` and the last `orders`;
/// - `app/file:<state dir>/state.json`: `settings.theme`, `features`, `api`, `toolbar`, `recentSearches`, `launches`;
/// - `scenario:checkout/memory`: one checkout, walked from address to confirmation, then ended.
///
/// Everything it writes comes from the seeded generator and the ``DemoClock`` (never the wall clock), so two scripts
/// with the same seed and the same starting state file make the same patches. Not thread-safe: ``DemoService``
/// keeps it behind a lock.
final class DemoScript {
    /// The data version of the demo's stores. 2.0.0 since the settings store took its current shape, so that a
    /// state file of the first demo (1.x) is dropped rather than mixed in.
    static let dataVersion: SemanticVersion = "2.0.0"

    let factory: DefaultStoreFactory
    let app: KeyValueStore
    let settings: KeyValueStore
    let components: DemoComponents
    var random: SeededGenerator
    var clock = DemoClock()
    /// The checkout scenario's progress (see DemoScript+Checkout.swift).
    var checkout = CheckoutProgress()
    let logger = Logger(label: "keyscope.demo")

    /// Opens and fills the app stores, then mounts the components (so every subscription starts with a value).
    init(configuration: DemoConfiguration, factory: DefaultStoreFactory, reporter: DemoReporter?) {
        self.factory = factory
        self.random = SeededGenerator(seed: configuration.seed)
        self.app = factory.store(scope: .app, storage: .memory)
        self.settings = factory.store(scope: .app, storage: .file(url: configuration.stateFile))
        self.components = DemoComponents(reporter: reporter)
        setUpApp()
        setUpSettings()
        components.mount(app: app, settings: settings)
    }

    /// One change (or, when a checkout ends, the scenario store's removal), chosen by the seeded generator.
    /// A refused write (the inspector may have reshaped a store) is logged and the story goes on.
    func step() {
        clock.advance(by: Int64.random(in: 1...20, using: &random))
        let roll = Int.random(in: 0..<100, using: &random)
        do {
            switch roll {
            case 0..<35: try stepCart()
            case 35..<60: stepCheckout()
            case 60..<82: try stepSession()
            default: try stepSettings()
            }
        } catch {
            logger.warning("a demo change was refused", metadata: ["error": "\(error)"])
        }
    }

    /// `app/memory` as a shop's app starts: two items in the cart, a signed-in shopper, a fresh session.
    private func setUpApp() {
        var cart: StoreValue = ["currency": "EUR", "total": 0.0]
        cart = Self.with(cart, items: [Self.item(DemoCatalog.products[0]), Self.item(DemoCatalog.products[5])])
        let user = user(random.pick(DemoCatalog.shoppers))
        let session = newSession()
        do {
            try app.transaction { tx in
                try tx.set("cart", cart)
                try tx.set("user", user)
                try tx.set("session", session)
                try tx.set("orders", [])
            }
        } catch {
            logger.error("could not set up app/memory", metadata: ["error": "\(error)"])
        }
    }

    /// `cart` with `items` and the total they make.
    static func with(_ cart: StoreValue, items: [StoreValue]) -> StoreValue {
        var members = cart.objectValue ?? [:]
        members["items"] = .array(items)
        members["total"] = .number(total(of: .object(members)))
        return .object(members)
    }

    /// A random identifier such as `sess_5f3a9c21`, from the seeded generator.
    func identifier(_ prefix: String) -> String {
        prefix + "_" + String(UInt32.random(in: 0x1000_0000...UInt32.max, using: &random), radix: 16)
    }
}
