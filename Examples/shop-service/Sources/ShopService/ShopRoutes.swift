public import Hummingbird
import KeyscopeCore

/// The shop's HTTP API, every handler reading and writing the stores of ``ShopStores``:
///
/// | route | does |
/// | --- | --- |
/// | `GET /health` | `{"ok": true}` |
/// | `GET /catalogue` | the products by id |
/// | `GET /cart` | the cart, priced, with the coupon, shipping and the greeting (``CartView``) |
/// | `POST /cart/items` | `{"id": "green-tea", "quantity": 2}` adds to the cart (409 past `max_cart_items`) |
/// | `DELETE /cart/items/:id` | takes a product out of the cart |
/// | `GET /flags` | the shared feature flags |
extension ShopStores {
    /// Adds the shop's routes to `router`.
    public func addRoutes(to router: Router<some RequestContext>) {
        router.get("/health") { _, _ in JSONValue(["ok": true]) }
        router.get("/catalogue") { _, _ in JSONValue(self.shop.get("catalogue") ?? [:]) }
        router.get("/cart") { _, _ in self.cartView() }
        router.post("/cart/items") { request, context -> EditedResponse<CartView> in
            let item = try await request.decode(as: NewItem.self, context: context)
            return EditedResponse(
                status: .created, response: try self.addItem(id: item.id, quantity: item.quantity ?? 1))
        }
        router.delete("/cart/items/:id") { _, context in
            try self.removeItem(id: try context.parameters.require("id"))
        }
        router.get("/flags") { _, _ in JSONValue(self.flags.snapshot()) }
    }
}

/// The body of `POST /cart/items`.
struct NewItem: Decodable {
    var id: String
    var quantity: Int?
}

extension CartView: ResponseEncodable {}

/// A store value as a JSON response body.
struct JSONValue: ResponseEncodable {
    let value: StoreValue

    init(_ value: StoreValue) { self.value = value }

    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
