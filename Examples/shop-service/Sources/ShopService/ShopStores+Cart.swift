public import HTTPTypes
import Hummingbird
public import KeyscopeCore
import KeyscopeTunables

/// Whose cart a request is about: the `Cart-ID` header, `guest` without one.
public struct CartID: Hashable, Sendable, CustomStringConvertible {
    /// The request header that names the cart.
    public static let header = HTTPField.Name("Cart-ID")!
    /// The cart of a request without a `Cart-ID`.
    public static let guest = CartID("guest")!

    public let description: String

    /// `nil` unless `text` is 1 to 64 of `A-Z a-z 0-9 _ -` (it becomes part of a store id).
    public init?(_ text: String) {
        let allowed = text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
        }
        guard allowed, (1...64).contains(text.unicodeScalars.count) else { return nil }
        description = text
    }

    /// The cart `request` names.
    /// - Throws: `HTTPError` 400 for a `Cart-ID` that is not a valid id.
    init(of request: Request) throws {
        guard let text = request.headers[Self.header] else {
            self = .guest
            return
        }
        guard let id = CartID(text) else {
            throw HTTPError(
                .badRequest, message: "bad_cart_id: Cart-ID must be 1 to 64 of A-Z a-z 0-9 _ -, got \"\(text)\"")
        }
        self = id
    }

    /// The scenario the cart's store belongs to: `cart-<id>`.
    var scenario: String { "cart-\(description)" }
}

extension ShopStores {
    /// The cart's store, `scenario:cart-<id>/memory`, made on first use: a scenario, so that ending it
    /// (``endCart(_:)``) drops the store and its data, and the inspector logs the store's removal.
    public func cart(_ id: CartID) -> KeyValueStore {
        factory.store(scope: .scenario(id: id.scenario), storage: .memory)
    }

    /// The cart's store when it exists (a read makes none).
    func existingCart(_ id: CartID) -> KeyValueStore? {
        registry.store(StoreID(scope: .scenario(id: id.scenario), storage: .memory)) as? KeyValueStore
    }

    /// Ends the cart's scenario: its store leaves the registry (and the inspector) with everything it held.
    public func endCart(_ id: CartID) {
        factory.endScenario(id.scenario)
    }

    /// The cart as `GET /cart` shows it, read from the stores and the tunables at this moment.
    func cartView(_ id: CartID) -> CartView {
        CartView(
            cart: existingCart(id)?.get("cart"), catalogue: shop.get("catalogue"),
            currency: settings.get("currency")?.stringValue ?? "EUR",
            message: tunables.string("welcome_text", default: "Welcome!"),
            freeShippingFrom: tunables.int("free_shipping_from", default: 5000))
    }

    /// Adds `quantity` of the product `id` to the cart, as one change (a transaction), within the tunable
    /// `max_cart_items`.
    /// - Throws: `HTTPError` 404 for a product the catalogue lacks, 409 when the cart would hold too many items,
    ///   400 for a quantity below 1.
    func addItem(id: String, quantity: Int, to cartID: CartID) throws -> CartView {
        guard quantity >= 1 else {
            throw HTTPError(.badRequest, message: "bad_quantity: the quantity must be 1 or more, got \(quantity)")
        }
        guard shop.get(StoreKeyPath(segments: [.key("catalogue"), .key(id)])) != nil else {
            throw HTTPError(.notFound, message: "unknown_product: no product \"\(id)\"; GET /catalogue lists them")
        }
        let limit = tunables.int("max_cart_items", default: 10)
        try cart(cartID).transaction { tx in
            var items = tx.get("cart.items")?.arrayValue ?? []
            let held = items.reduce(0) { $0 + Int($1["quantity"]?.integerValue ?? 1) }
            guard held + quantity <= limit else {
                throw HTTPError(
                    .conflict,
                    message: "cart_full: the cart holds \(held) items and takes at most \(limit) (max_cart_items); "
                        + "remove some first")
            }
            if let index = items.firstIndex(where: { $0["id"]?.stringValue == id }) {
                let before = Int(items[index]["quantity"]?.integerValue ?? 1)
                items[index] = ["id": .string(id), "quantity": .integer(Int64(before + quantity))]
            } else {
                items.append(["id": .string(id), "quantity": .integer(Int64(quantity))])
            }
            try tx.set("cart.items", .array(items))
        }
        return cartView(cartID)
    }

    /// Takes the product `id` out of the cart, as one change.
    /// - Throws: `HTTPError` 404 when the cart does not hold it.
    func removeItem(id: String, from cartID: CartID) throws -> CartView {
        let notInCart = HTTPError(.notFound, message: "not_in_cart: the cart \(cartID) holds no \"\(id)\"")
        guard let store = existingCart(cartID) else { throw notInCart }
        try store.transaction { tx in
            let items = tx.get("cart.items")?.arrayValue ?? []
            guard let index = items.firstIndex(where: { $0["id"]?.stringValue == id }) else { throw notInCart }
            try tx.remove(StoreKeyPath(segments: [.key("cart"), .key("items"), .index(index)]))
        }
        return cartView(cartID)
    }
}
