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
            let entry = try await shop.awaitEntry { entry in
                entry["store"] == "app/memory"
                    && (entry["patches"]?.arrayValue ?? []).contains { $0["path"]?.stringValue == "cart.items" }
            }
            let patch = try #require(entry["patches"]?[0])
            #expect(patch["new"]?[0]?["id"] == "green-tea", "the log has what the handler wrote: \(entry.jsonText())")
        }
    }

    @Test func aWriteThroughTheInspectorChangesWhatTheAPIAnswers() async throws {
        try await ShopHarness.run { shop in
            let added = try await shop.call(.post, "/cart/items", body: #"{"id": "teapot"}"#)
            #expect(added.status == .created)
            let reply = try await shop.inspector.send(request: [
                "type": "write", "store": "app/memory", "op": "set", "path": "cart.coupon", "value": "SAVE10",
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
}
