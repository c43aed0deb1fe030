import KeyscopeCore

/// The products the shop sells, as the `catalogue` of the `app/memory` store: id → `{title, price}` (cents).
enum Catalogue {
    static let products: StoreValue = [
        "green-tea": ["title": "Green tea", "price": 450],
        "black-tea": ["title": "Black tea", "price": 400],
        "oolong": ["title": "Oolong", "price": 780],
        "teapot": ["title": "Cast-iron teapot", "price": 3900],
    ]
}
