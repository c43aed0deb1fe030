import KeyscopeCore

/// What `GET /cart` answers: the cart's items from the store, priced from the catalogue, with the coupon, the
/// shipping rule and the greeting from the tunables, and the currency from the settings.
struct CartView: Codable, Sendable {
    struct Line: Codable, Sendable {
        var id: String
        var title: String
        var price: Int
        var quantity: Int
    }

    var message: String
    var currency: String
    var items: [Line]
    var coupon: String?
    var couponValid: Bool
    var subtotal: Int
    var discount: Int
    var shipping: Int
    var total: Int
}

/// The coupons the shop knows: code → percent off.
enum Coupons {
    static let percentOff = ["SAVE10": 10, "SAVE20": 20]
}

extension CartView {
    /// Shipping below the tunable threshold, in cents.
    static let shippingFee = 490

    /// The view of `cart` (the store's `cart` value) as the customer sees it now.
    init(cart: StoreValue?, catalogue: StoreValue?, currency: String, message: String, freeShippingFrom: Int) {
        let lines: [Line] = (cart?["items"]?.arrayValue ?? []).compactMap { item in
            guard let id = item["id"]?.stringValue else { return nil }
            let product = catalogue?[id]
            return Line(
                id: id, title: product?["title"]?.stringValue ?? id,
                price: Int(product?["price"]?.integerValue ?? 0),
                quantity: Int(item["quantity"]?.integerValue ?? 1))
        }
        let subtotal = lines.reduce(0) { $0 + $1.price * $1.quantity }
        let coupon = cart?["coupon"]?.stringValue
        let percent = coupon.flatMap { Coupons.percentOff[$0.uppercased()] }
        let discount = subtotal * (percent ?? 0) / 100
        let shipping = subtotal == 0 || subtotal - discount >= freeShippingFrom ? 0 : Self.shippingFee
        self.init(
            message: message, currency: currency, items: lines, coupon: coupon, couponValid: percent != nil,
            subtotal: subtotal, discount: discount, shipping: shipping, total: subtotal - discount + shipping)
    }
}
