import KeyscopeCore

/// The fixed content the demo's story picks from: products, shoppers, pages, coupons, shipping options, themes.
///
/// ```swift
/// let product = random.pick(DemoCatalog.products)   // ("TEA-EG-100", "Earl Grey tea, 100 g", 6.5)
/// ```
enum DemoCatalog {
    struct Product {
        var sku: String
        var title: String
        var price: Double
    }

    struct Shopper {
        var id: String
        var names: [String]
        var email: String
    }

    struct Address {
        var street: String
        var city: String
        var zip: String
        var country: String
    }

    static let products = [
        Product(sku: "TEA-EG-100", title: "Earl Grey tea, 100 g", price: 6.5),
        Product(sku: "COF-ETH-250", title: "Ethiopian coffee beans, 250 g", price: 12.9),
        Product(sku: "MUG-STN-01", title: "Stoneware mug", price: 14.0),
        Product(sku: "KTL-GS-17", title: "Gooseneck kettle", price: 49.0),
        Product(sku: "HDP-NC-700", title: "Noise-cancelling headphones", price: 179.0),
        Product(sku: "NTB-A5-DOT", title: "Dotted A5 notebook", price: 9.5),
        Product(sku: "CHO-DK-85", title: "Dark chocolate 85%", price: 3.2),
        Product(sku: "UMB-CMP-BK", title: "Compact umbrella", price: 24.9),
        Product(sku: "SCK-MRN-3P", title: "Merino socks, 3 pack", price: 19.0),
        Product(sku: "CBL-USBC-2M", title: "USB-C cable, 2 m", price: 11.99),
    ]

    /// Each shopper's display names: the first is the one they sign up with, the others what they edit it to.
    static let shoppers = [
        Shopper(id: "u_1042", names: ["Ada Lovelace", "Ada L.", "Countess Ada"], email: "ada@example.com"),
        Shopper(id: "u_2077", names: ["Grace Hopper", "Grace", "Adm. Hopper"], email: "grace@example.com"),
        Shopper(id: "u_3141", names: ["Émilie du Châtelet", "Émilie"], email: "emilie@example.fr"),
    ]

    static let addresses = [
        Address(street: "12 Rue Oberkampf", city: "Paris", zip: "75011", country: "FR"),
        Address(street: "4 Harbour Lane", city: "Bristol", zip: "BS1 4DJ", country: "GB"),
        Address(street: "77 Lindenstraße", city: "Berlin", zip: "10117", country: "DE"),
        Address(street: "9 Via Roma", city: "Rome", zip: "00184", country: "IT"),
    ]

    static let tiers = ["free", "plus", "pro"]

    static let routes = ["/", "/search?q=tea", "/deals", "/cart", "/account", "/orders", "/help/shipping"]

    /// `session.flags`: what a session switches on and off as it goes.
    static let sessionFlags = ["cookieConsent", "newsletterPrompt", "chatOpen", "debugOverlay"]

    /// `(code, percent off)`.
    static let coupons: [(code: String, percentOff: Int64)] = [("SPRING10", 10), ("WELCOME5", 5), ("VIP20", 20)]

    /// `checkout.shipping.options`.
    static let shippingOptions: [StoreValue] = [
        ["id": "standard", "label": "Standard, 3–5 days", "price": 4.9],
        ["id": "express", "label": "Express, next day", "price": 12.9],
        ["id": "pickup", "label": "Pick up in store", "price": 0.0],
    ]

    static let checkoutSteps = ["address", "shipping", "payment", "confirmation"]

    static let paymentMethods = ["card", "paypal", "apple-pay"]

    static let declineReasons = ["insufficient_funds", "card_expired", "do_not_honor"]

    /// `settings.theme.accent`.
    static let accents = ["#0A84FF", "#FF9F0A", "#30D158", "#BF5AF2", "#FF375F"].compactMap(StoreColor.init)

    static let themeModes = ["light", "dark", "system"]

    /// `features.<name>`: the app's feature flags.
    static let features = ["newCheckout", "oneClickPay", "recommendations", "darkModeBeta"]

    /// `api.baseURL`: production or staging.
    static let apiBaseURLs = ["https://api.example.com/v2", "https://staging.api.example.com/v2"]

    static let toolbarHeights: [Int64] = [44, 52, 60]

    static let searches = ["tea", "headphones", "gift ideas", "umbrella", "dark chocolate", "kettle"]
}
