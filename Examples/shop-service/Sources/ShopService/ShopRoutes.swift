public import Hummingbird
import KeyscopeCore
import Logging

/// The shop's HTTP API, every handler reading and writing the stores of ``ShopStores``:
///
/// | route | does |
/// | --- | --- |
/// | `GET /health` | `{"ok": true}` |
/// | `GET /catalogue` | the products by id |
/// | `GET /cart` | the cart, priced, with the coupon, shipping and the greeting (``CartView``) |
/// | `POST /cart/items` | `{"id": "green-tea", "quantity": 2}` adds to the cart (409 past `max_cart_items`) |
/// | `DELETE /cart/items/:id` | takes a product out of the cart |
/// | `DELETE /cart` | ends the cart's scenario: its store and everything in it are gone |
/// | `GET /flags` | the shared feature flags |
///
/// The cart routes act on the cart the `Cart-ID` header names (``CartID``), `guest` without one.
extension ShopStores {
    /// Adds the shop's routes to `router`.
    public func addRoutes(to router: Router<some RequestContext>) {
        router.get("/health") { _, _ in JSONValue(["ok": true]) }
        router.get("/catalogue") { _, _ in JSONValue(self.shop.get("catalogue") ?? [:]) }
        router.get("/cart") { request, _ in self.cartView(try CartID(of: request)) }
        router.post("/cart/items") { request, context -> EditedResponse<CartView> in
            let cart = try CartID(of: request)
            let item = try await request.decode(as: NewItem.self, context: context)
            let view = try self.addItem(id: item.id, quantity: item.quantity ?? 1, to: cart)
            context.logger.info("added to cart", metadata: ["cart": "\(cart)", "product": "\(item.id)"])
            return EditedResponse(status: .created, response: view)
        }
        router.delete("/cart/items/:id") { request, context in
            let (cart, product) = (try CartID(of: request), try context.parameters.require("id"))
            let view = try self.removeItem(id: product, from: cart)
            context.logger.info("removed from cart", metadata: ["cart": "\(cart)", "product": "\(product)"])
            return view
        }
        router.delete("/cart") { request, context in
            let cart = try CartID(of: request)
            self.endCart(cart)
            context.logger.info("cart ended", metadata: ["cart": "\(cart)"])
            return self.cartView(cart)
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
