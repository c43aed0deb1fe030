import KeyscopeCore

/// The cart in `app/memory`: items are added (or their quantity raised), removed and changed, a coupon comes and
/// goes. `cart.total` is always the items' prices times quantities, less the coupon's percentage, in cents.
extension DemoScript {
    static let cartItems: StoreKeyPath = "cart.items"
    static let cartTotal: StoreKeyPath = "cart.total"
    static let cartCoupon: StoreKeyPath = "cart.coupon"
    static let cart: StoreKeyPath = "cart"
    /// A full cart loses items rather than gaining more.
    static let fullCart = 5

    func stepCart() throws {
        let items = app.get(Self.cartItems)?.arrayValue ?? []
        var roll = Int.random(in: 0..<100, using: &random)
        if items.count >= Self.fullCart, roll < 45 { roll = 45 }
        if items.isEmpty, roll < 88 { roll = 0 }
        switch roll {
        case 0..<45: try addItem(random.pick(DemoCatalog.products))
        case 45..<70: try removeItem(at: Int.random(in: 0..<items.count, using: &random))
        case 70..<88:
            let index = Int.random(in: 0..<items.count, using: &random)
            let current = items[index]["quantity"]?.integerValue
            try changeQuantity(at: index, to: random.pick(Array(Int64(1)...4).filter { $0 != current }))
        default: try toggleCoupon(random.pick(DemoCatalog.coupons))
        }
    }

    /// One transaction: insert the item (or raise its quantity when it is in the cart) and recompute the total.
    func addItem(_ product: DemoCatalog.Product) throws {
        try app.transaction { tx in
            let items = tx.get(Self.cartItems)?.arrayValue
            if items == nil { try tx.set(Self.cartItems, []) }
            if let index = items?.firstIndex(where: { $0["sku"]?.stringValue == product.sku }) {
                let quantity = (items?[index]["quantity"]?.integerValue ?? 0) + 1
                try tx.set(Self.itemPath(index).appending(key: "quantity"), .integer(quantity))
            } else {
                try tx.insert(Self.itemPath(items?.count ?? 0), Self.item(product))
            }
            try tx.set(Self.cartTotal, .number(Self.total(of: tx.get(Self.cart))))
        }
    }

    /// Two operations through `apply`, which makes them one transaction: the removal and the new total.
    private func removeItem(at index: Int) throws {
        var after = app.get(Self.cart)?.objectValue ?? [:]
        var items = after["items"]?.arrayValue ?? []
        guard items.indices.contains(index) else { return }
        items.remove(at: index)
        after["items"] = .array(items)
        try app.apply([.remove(Self.itemPath(index)), .set(Self.cartTotal, .number(Self.total(of: .object(after))))])
    }

    private func changeQuantity(at index: Int, to quantity: Int64) throws {
        try app.transaction { tx in
            guard tx.exists(Self.itemPath(index)) else { return }
            try tx.set(Self.itemPath(index).appending(key: "quantity"), .integer(quantity))
            try tx.set(Self.cartTotal, .number(Self.total(of: tx.get(Self.cart))))
        }
    }

    /// Applies a coupon with a merge into `cart`, or drops the one there; the total follows in the same transaction.
    private func toggleCoupon(_ coupon: (code: String, percentOff: Int64)) throws {
        try app.transaction { tx in
            if tx.exists(Self.cartCoupon) {
                try tx.remove(Self.cartCoupon)
            } else {
                try tx.merge(
                    Self.cart, ["coupon": ["code": .string(coupon.code), "percentOff": .integer(coupon.percentOff)]])
            }
            try tx.set(Self.cartTotal, .number(Self.total(of: tx.get(Self.cart))))
        }
    }

    /// `cart.items[index]`, built from segments rather than parsed from text.
    static func itemPath(_ index: Int) -> StoreKeyPath {
        cartItems.appending(index: index)
    }

    static func item(_ product: DemoCatalog.Product) -> StoreValue {
        ["sku": .string(product.sku), "title": .string(product.title), "price": .number(product.price), "quantity": 1]
    }

    /// Prices times quantities, less the coupon's percentage, rounded to cents.
    static func total(of cart: StoreValue?) -> Double {
        let items = cart?["items"]?.arrayValue ?? []
        let sum = items.reduce(0.0) { sum, item in
            sum + (item["price"]?.doubleValue ?? 0) * Double(item["quantity"]?.integerValue ?? 1)
        }
        let percentOff = Double(cart?["coupon"]?["percentOff"]?.integerValue ?? 0)
        // Whole cents first, so that sums of prices print as 42.4 and not 42.400000000000006.
        return (sum * (100 - percentOff)).rounded() / 100
    }
}
