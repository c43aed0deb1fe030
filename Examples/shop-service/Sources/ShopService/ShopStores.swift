public import Foundation
public import KeyscopeCore
public import KeyscopeTunables
public import Logging

/// Everything the shop keeps, in Keyscope stores, so the inspector sees (and can change) every bit of it:
///
/// | store | holds |
/// | --- | --- |
/// | `app/memory` | `catalogue` (products by id) |
/// | `scenario:cart-<id>/memory` | one customer's `cart` (items, coupon), from its first item to `DELETE /cart` |
/// | `app/file:<data>/settings.json` | `currency` and `shop_name`, kept across restarts |
/// | `app/backend:flags` | feature flags (`gift_wrap`, `express_checkout`), shared by every instance (Redis) |
/// | `app/file:<data>/live-constants.json` | the tunables: `max_cart_items`, `free_shipping_from`, `welcome_text` |
///
/// ```swift
/// let stores = try ShopStores(dataDirectory: URL(fileURLWithPath: ".shop-data"))
/// let cart = stores.cart(CartID("ada")!)             // scenario:cart-ada/memory
/// ```
public final class ShopStores: Sendable {
    /// Where the stores are registered: the inspector watches this registry.
    public let registry: StoreRegistry
    /// Makes the stores; its version drops persisted data on a major change.
    public let factory: DefaultStoreFactory
    /// The catalogue (each cart is a scenario store of its own: ``cart(_:)``).
    public let shop: KeyValueStore
    /// Settings that survive a restart.
    public let settings: KeyValueStore
    /// Feature flags shared by every instance of the service (through the factory's backend).
    public let flags: KeyValueStore
    /// Limits and copy, tweakable while the service runs (`keyscope tune`, the dashboard's Tunables tab).
    public let tunables: Tunables

    /// Opens the stores; settings and tunables live in `dataDirectory` (made when missing).
    /// - Parameters:
    ///   - registry: where the stores are registered (``StoreRegistry/shared`` is what `Inspector.start()` watches).
    ///   - backend: where `app/backend:flags` lives; `nil` keeps it in this process's memory.
    public init(
        dataDirectory: URL, registry: StoreRegistry = .shared, backend: (any BackendAdapter)? = nil,
        logger: Logger = Logger(label: "shop.stores")
    ) throws {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        self.registry = registry
        factory = DefaultStoreFactory(version: "1.0.0", registry: registry, backend: backend)
        shop = factory.store(storage: .memory)
        settings = factory.store(storage: .file(url: dataDirectory.appendingPathComponent("settings.json")))
        flags = factory.store(storage: .backend(namespace: "flags"))
        guard let defaults = Bundle.module.url(forResource: "live-constants", withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Resources/live-constants.json"])
        }
        tunables = try Tunables(
            defaultsURL: defaults, fileURL: dataDirectory.appendingPathComponent("live-constants.json"),
            registry: registry, logger: logger)
        seed()
    }

    /// Stops watching the tunables' file and saves what is pending.
    public func stop() {
        tunables.stop()
    }

    /// The first run's data: the catalogue, default settings and flags (kept when already there).
    private func seed() {
        _ = shop.set("catalogue", Catalogue.products)
        if settings.get("currency") == nil { _ = settings.set("currency", "EUR") }
        if settings.get("shop_name") == nil { _ = settings.set("shop_name", "The tea shop") }
        if flags.get("gift_wrap") == nil { _ = flags.set("gift_wrap", false) }
        if flags.get("express_checkout") == nil { _ = flags.set("express_checkout", true) }
    }
}
