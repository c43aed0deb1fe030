import Hummingbird
import KeyscopeCore
import KeyscopeTunables

extension ShopStores {
    /// The cart as `GET /cart` shows it, read from the stores and the tunables at this moment.
    func cartView() -> CartView {
        CartView(
            cart: shop.get("cart"), catalogue: shop.get("catalogue"),
            currency: settings.get("currency")?.stringValue ?? "EUR",
            message: tunables.string("welcome_text", default: "Welcome!"),
            freeShippingFrom: tunables.int("free_shipping_from", default: 5000))
    }

    /// Adds `quantity` of the product `id` to the cart, as one change (a transaction), within the tunable
    /// `max_cart_items`.
    /// - Throws: `HTTPError` 404 for a product the catalogue lacks, 409 when the cart would hold too many items,
    ///   400 for a quantity below 1.
    func addItem(id: String, quantity: Int) throws -> CartView {
        guard quantity >= 1 else {
            throw HTTPError(.badRequest, message: "bad_quantity: the quantity must be 1 or more, got \(quantity)")
        }
        let limit = tunables.int("max_cart_items", default: 10)
        try shop.transaction { tx in
            guard tx.get(StoreKeyPath(segments: [.key("catalogue"), .key(id)])) != nil else {
                throw HTTPError(.notFound, message: "unknown_product: no product \"\(id)\"; GET /catalogue lists them")
            }
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
        return cartView()
    }

    /// Takes the product `id` out of the cart, as one change.
    /// - Throws: `HTTPError` 404 when the cart does not hold it.
    func removeItem(id: String) throws -> CartView {
        try shop.transaction { tx in
            let items = tx.get("cart.items")?.arrayValue ?? []
            guard let index = items.firstIndex(where: { $0["id"]?.stringValue == id }) else {
                throw HTTPError(.notFound, message: "not_in_cart: the cart holds no \"\(id)\"")
            }
            try tx.remove(StoreKeyPath(segments: [.key("cart"), .key("items"), .index(index)]))
        }
        return cartView()
    }
}
