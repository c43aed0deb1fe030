import HTTPTypes
import KeyscopeClient
import KeyscopeCore
import ShopService
import Testing

/// The example service end to end: its API over real HTTP, its inspector over the real WebSocket, both running as
/// `shop-service` runs them.
@Suite struct ShopServiceTests {
    @Test func anAPICallShowsUpInTheInspectorsLog() async throws {
        try await ShopHarness.run { shop in
            let (status, cart) = try await shop.call(.post, "/cart/items", body: #"{"id": "green-tea", "quantity": 2}"#)
            #expect(status == .created)
            #expect(cart?["items"]?[0]?["quantity"] == 2)
            // The cart's first item makes its scenario store, so the change writes `cart` whole.
            let entry = try await shop.awaitEntry { entry in
                entry["store"] == "scenario:cart-guest/memory" && entry["patches"] != nil
            }
            let patch = try #require(entry["patches"]?[0])
            #expect(patch["path"] == "cart", "\(entry.jsonText())")
            #expect(patch["new"] == ["items": [["id": "green-tea", "quantity": 2]]], "\(entry.jsonText())")
        }
    }

    @Test func aWriteThroughTheInspectorChangesWhatTheAPIAnswers() async throws {
        try await ShopHarness.run { shop in
            let added = try await shop.call(.post, "/cart/items", body: #"{"id": "teapot"}"#)
            #expect(added.status == .created)
            let reply = try await shop.inspector.send(request: [
                "type": "write", "store": "scenario:cart-guest/memory", "op": "set", "path": "cart.coupon",
                "value": "SAVE10",
            ])
            #expect(reply.ok, "\(reply.message.jsonText())")
            let (status, cart) = try await shop.call(.get, "/cart")
            #expect(status == .ok)
            #expect(cart?["coupon"] == "SAVE10")
            #expect(cart?["couponValid"] == true)
            #expect(cart?["subtotal"] == 3900)
            #expect(cart?["discount"] == 390)
        }
    }

    @Test func aTunableEditThroughTheInspectorChangesTheAPIsRules() async throws {
        try await ShopHarness.run { shop in
            let greeting = try await shop.inspector.send(request: [
                "type": "tune", "key": "welcome_text", "value": "Tea time",
            ])
            #expect(greeting.ok, "\(greeting.message.jsonText())")
            let greeted = try await shop.call(.get, "/cart").json
            #expect(greeted?["message"] == "Tea time")

            let limit = try await shop.inspector.send(request: ["type": "tune", "key": "max_cart_items", "value": 1])
            #expect(limit.ok, "\(limit.message.jsonText())")
            let (refused, body) = try await shop.call(.post, "/cart/items", body: #"{"id": "oolong", "quantity": 2}"#)
            #expect(refused == .conflict)
            #expect(body?["error"]?["message"]?.stringValue?.contains("max_cart_items") == true)
            let after = try await shop.call(.get, "/cart").json
            #expect(after?["items"] == [], "nothing was added")
        }
    }

    @Test func flagsAndTheCatalogueComeFromTheirStores() async throws {
        try await ShopHarness.run { shop in
            let flags = try await shop.call(.get, "/flags").json
            #expect(flags == ["gift_wrap": false, "express_checkout": true])
            _ = shop.stores.flags.set("gift_wrap", true)
            let changed = try await shop.call(.get, "/flags").json
            #expect(changed?["gift_wrap"] == true)
            let catalogue = try await shop.call(.get, "/catalogue").json
            #expect(catalogue?["oolong"]?["price"] == 780)
            let missing = try await shop.call(.delete, "/cart/items/oolong")
            #expect(missing.status == .notFound)
        }
    }

    @Test func eachCartIsAScenarioStoreThatDeleteCartEnds() async throws {
        try await ShopHarness.run { shop in
            let forAda = try await shop.call(.post, "/cart/items", body: #"{"id": "oolong"}"#, cart: "ada")
            #expect(forAda.status == .created)
            let forBob = try await shop.call(.post, "/cart/items", body: #"{"id": "teapot"}"#, cart: "bob")
            #expect(forBob.status == .created)
            let ada = try await shop.call(.get, "/cart", cart: "ada").json
            #expect(ada?["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["oolong"])
            #expect(shop.stores.cart(CartID("bob")!).get("cart.items")?[0]?["id"] == "teapot")
            #expect(try await shop.call(.get, "/cart").json?["items"] == [], "the guest's cart is a third one")

            let ended = try await shop.call(.delete, "/cart", cart: "ada")
            #expect(ended.status == .ok)
            #expect(ended.json?["items"] == [])
            let removal = try await shop.awaitEntry { $0["event"] == "removed" }
            #expect(removal["store"] == "scenario:cart-ada/memory", "the inspector saw the scenario end")
            #expect(shop.stores.registry.store(StoreID("scenario:cart-ada/memory")!) == nil)
            #expect(try await shop.call(.get, "/cart", cart: "bob").json?["subtotal"] == 3900, "bob's cart stays")
            let gone = try await shop.call(.delete, "/cart/items/oolong", cart: "ada")
            #expect(gone.status == .notFound)
        }
    }

    @Test func aBadCartIDIsRefusedWithWhatIsAllowed() async throws {
        try await ShopHarness.run { shop in
            let (status, body) = try await shop.call(.post, "/cart/items", body: #"{"id": "oolong"}"#, cart: "a/b")
            #expect(status == .badRequest)
            #expect(body?["error"]?["message"]?.stringValue?.contains("Cart-ID must be 1 to 64 of") == true)
            #expect(shop.stores.registry.stores.allSatisfy { $0.id.scope == .app }, "no cart store made")
        }
    }
}
