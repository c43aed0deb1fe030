import KeyscopeCore

/// The shopping cart in `app/memory`: items come and go, quantities change, a coupon is applied and dropped.
/// `cart.total` always equals the items' prices times quantities, less 10 with the coupon.
extension DemoService {
    private static let catalog: [(title: String, price: Int64)] = [
        ("Tea", 4), ("Coffee beans", 14), ("Croissant", 3), ("Headphones", 79), ("Notebook", 9),
        ("Mug", 12), ("Chocolate", 5), ("Kettle", 45), ("Umbrella", 24), ("Socks", 8),
    ]
    private static let couponCode = "SAVE10"
    private static let couponDiscount: Int64 = 10

    func setUpCart() {
        do {
            try cart.transaction { tx in
                try tx.set("cart", ["currency": "EUR", "items": [], "total": 0])
                for (index, product) in [Self.catalog[0], Self.catalog[4]].enumerated() {
                    try tx.insert(Self.itemPath(index), Self.item(product))
                }
                try tx.set("cart.total", .integer(Self.total(of: tx.get("cart"))))
            }
        } catch {
            Console.error("demo: could not set up the cart: \(error)")
        }
    }

    func stepCart() {
        let items = cart.get("cart.items")?.arrayValue ?? []
        var roll = Int.random(in: 0..<100, using: &random)
        if items.count >= 6, roll < 40 { roll = 40 }  // full: remove instead of adding
        if items.isEmpty, (40..<75).contains(roll) { roll = 0 }  // empty: add instead
        do {
            switch roll {
            case 0..<40: try addItem(at: Int.random(in: 0...items.count, using: &random))
            case 40..<60: try removeItem(at: Int.random(in: 0..<items.count, using: &random))
            case 60..<75: try changeQuantity(at: Int.random(in: 0..<items.count, using: &random))
            case 75..<87: try toggleCoupon()
            default: viewProduct()
            }
        } catch {
            Console.error("demo: a cart change was refused: \(error)")
        }
    }

    /// A transaction: insert into the items array and update the total.
    private func addItem(at index: Int) throws {
        let product = random.pick(Self.catalog)
        try cart.transaction { tx in
            try tx.insert(Self.itemPath(index), Self.item(product))
            try tx.set("cart.total", .integer(Self.total(of: tx.get("cart"))))
        }
    }

    /// Several operations through `apply`, which makes them one transaction.
    private func removeItem(at index: Int) throws {
        var after = cart.get("cart")?.objectValue ?? [:]
        var items = after["items"]?.arrayValue ?? []
        items.remove(at: index)
        after["items"] = .array(items)
        try cart.apply([
            .remove(Self.itemPath(index)),
            .set("cart.total", .integer(Self.total(of: .object(after)))),
        ])
    }

    private func changeQuantity(at index: Int) throws {
        let quantity = Int64.random(in: 1...4, using: &random)
        try cart.transaction { tx in
            try tx.set(
                StoreKeyPath(segments: [.key("cart"), .key("items"), .index(index), .key("qty")]),
                .integer(quantity))
            try tx.set("cart.total", .integer(Self.total(of: tx.get("cart"))))
        }
    }

    private func toggleCoupon() throws {
        try cart.transaction { tx in
            if tx.exists("cart.coupon") {
                try tx.remove("cart.coupon")
            } else {
                try tx.set("cart.coupon", .string(Self.couponCode))
            }
            try tx.set("cart.total", .integer(Self.total(of: tx.get("cart"))))
        }
    }

    /// A single, non-throwing write.
    private func viewProduct() {
        cart.set("cart.lastViewed", .string(random.pick(Self.catalog).title))
    }

    /// `cart.items[index]`, built from segments rather than parsed from text.
    private static func itemPath(_ index: Int) -> StoreKeyPath {
        StoreKeyPath(segments: [.key("cart"), .key("items"), .index(index)])
    }

    private static func item(_ product: (title: String, price: Int64)) -> StoreValue {
        ["title": .string(product.title), "price": .integer(product.price), "qty": 1]
    }

    /// Prices times quantities, less the coupon's discount (never below zero).
    private static func total(of cart: StoreValue?) -> Int64 {
        let items = cart?["items"]?.arrayValue ?? []
        let sum = items.reduce(Int64(0)) { sum, item in
            sum + (item["price"]?.integerValue ?? 0) * (item["qty"]?.integerValue ?? 1)
        }
        let discount = cart?["coupon"] == nil ? 0 : couponDiscount
        return max(0, sum - discount)
    }
}
