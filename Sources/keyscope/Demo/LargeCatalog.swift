import Foundation
import KeyscopeCore

/// A product catalog of an exact size, for `keyscope serve --demo --demo-keys N`: the store a dashboard's first
/// render is measured on (issue 4 times it with 100,000 keys).
///
/// ```swift
/// let root = LargeCatalog.root(keys: 100_000, seed: 42)
/// LargeCatalog.keyCount(root)   // 100000
/// ```
/// "Keys" are the tree's nodes below the root: every object member and every array element, at any depth, so the
/// number is what a tree view would have to show fully expanded. The content is realistic and varied per docs/store.md
/// (objects, arrays, strings, integers, numbers, booleans, null, colors and urls): a `catalog` header, a few
/// `categories`, and `products` keyed by id (`p000001`…), one large object that a dashboard has to expand lazily.
/// The last product is cut short, in sorted-key order, to make the count exact. The same seed makes the same
/// catalog.
enum LargeCatalog {
    /// Where it is registered: a scenario of its own, so it sits apart from the app's stores.
    static let storeID = StoreID(scope: .scenario(id: "catalog"), storage: .memory)
    /// The most keys `--demo-keys` accepts: far beyond what a first render is measured with, still a few seconds
    /// to build in a debug binary.
    static let maximumKeys = 2_000_000

    /// A catalog with exactly `keys` keys (see the type's notes); `{}` for 0.
    static func root(keys: Int, seed: UInt64) -> StoreValue {
        var random = SeededGenerator(seed: seed)
        var members: [String: StoreValue] = [
            "catalog": header(),
            "categories": .array(categories.map(category)),
        ]
        var count = members.values.reduce(members.count) { $0 + keyCount($1) }
        var products: [String: StoreValue] = [:]
        count += 1  // the `products` member itself
        var number = 0
        while count < keys {
            number += 1
            let product = product(number, random: &random)
            products[productID(number)] = product
            count += 1 + keyCount(product)
        }
        members["products"] = .object(products)
        return truncated(.object(members), keeping: keys)
    }

    /// The nodes below `value`: its members or elements, theirs, and so on (0 for a scalar).
    static func keyCount(_ value: StoreValue) -> Int {
        switch value {
        case .object(let members): members.values.reduce(members.count) { $0 + keyCount($1) }
        case .array(let elements): elements.reduce(elements.count) { $0 + keyCount($1) }
        default: 0
        }
    }

    /// `value` with only its first `limit` nodes below it, walked depth first with object keys sorted.
    static func truncated(_ value: StoreValue, keeping limit: Int) -> StoreValue {
        var budget = limit
        return truncated(value, budget: &budget)
    }

    private static func truncated(_ value: StoreValue, budget: inout Int) -> StoreValue {
        switch value {
        case .object(let members):
            var kept: [String: StoreValue] = [:]
            for key in members.keys.sorted() where budget > 0 {
                budget -= 1
                kept[key] = truncated(members[key]!, budget: &budget)
            }
            return .object(kept)
        case .array(let elements):
            var kept: [StoreValue] = []
            for element in elements where budget > 0 {
                budget -= 1
                kept.append(truncated(element, budget: &budget))
            }
            return .array(kept)
        default:
            return value
        }
    }

    static func productID(_ number: Int) -> String {
        "p" + String(repeating: "0", count: max(0, 6 - String(number).count)) + String(number)
    }

    // MARK: - Content

    private static let categories: [(id: String, title: String, hex: String)] = [
        ("tea", "Tea", "#2E7D32"), ("coffee", "Coffee", "#6D4C41"), ("kitchen", "Kitchen", "#1565C0"),
        ("audio", "Audio", "#37474F"), ("stationery", "Stationery", "#F9A825"), ("food", "Food", "#AD1457"),
        ("outdoor", "Outdoor", "#00838F"), ("clothing", "Clothing", "#5E35B1"),
    ]
    private static let adjectives = ["Classic", "Organic", "Travel", "Deluxe", "Mini", "Everyday", "Limited", "Studio"]
    private static let tags = ["gift", "bestseller", "new", "eco", "vegan", "fair-trade", "sale", "bundle", "refill"]
    private static let sizes = ["XS", "S", "M", "L", "XL"]

    private static func header() -> StoreValue {
        [
            "name": "Keyscope demo catalog",
            "currency": "EUR",
            "locale": "en-GB",
            "updatedAt": .string(DemoClock().timestamp),
            "homepage": url("https://shop.example.com/"),
            "brandColor": .color(StoreColor("#0A84FF")!),
        ]
    }

    private static func category(_ entry: (id: String, title: String, hex: String)) -> StoreValue {
        [
            "id": .string(entry.id),
            "title": .string(entry.title),
            "color": .color(StoreColor(entry.hex)!),
            "url": url("https://shop.example.com/c/\(entry.id)"),
        ]
    }

    /// One product, about 40 keys; its shape varies with the generator (tags, variants, a discontinued date).
    private static func product(_ number: Int, random: inout SeededGenerator) -> StoreValue {
        let base = random.pick(DemoCatalog.products)
        let category = random.pick(categories)
        let id = productID(number)
        let price = (base.price * Double.random(in: 0.6...1.8, using: &random) * 100).rounded() / 100
        var product: [String: StoreValue] = [
            "id": .string(id),
            "sku": .string("\(base.sku)-\(number)"),
            "title": .string(
                "\(random.pick(adjectives)) \(base.title.prefix(1).lowercased())\(base.title.dropFirst())"),
            "category": .string(category.id),
            "price": .number(price),
            "stock": .integer(Int64.random(in: 0...500, using: &random)),
            "active": .bool(random.chance(90)),
            "color": .color(randomColor(&random)),
            "url": url("https://shop.example.com/p/\(id)"),
            "images": .array(
                (1...Int.random(in: 1...3, using: &random)).map { url("https://cdn.example.com/\(id)/\($0).jpg") }),
            "tags": .array((0..<Int.random(in: 0...4, using: &random)).map { _ in .string(random.pick(tags)) }),
            "rating": [
                "average": .number(Double(Int.random(in: 10...50, using: &random)) / 10),
                "count": .integer(Int64.random(in: 0...5000, using: &random)),
            ],
            "dimensions": [
                "width": .number(Double(Int.random(in: 10...400, using: &random)) / 10),
                "height": .number(Double(Int.random(in: 10...400, using: &random)) / 10),
                "depth": .number(Double(Int.random(in: 10...400, using: &random)) / 10),
                "unit": "cm",
            ],
            "variants": .array((0..<Int.random(in: 1...4, using: &random)).map { _ in variant(id, random: &random) }),
            "discontinuedAt": random.chance(10) ? .string(DemoClock().timestamp) : .null,
        ]
        if random.chance(30) {
            product["compareAtPrice"] = .number((price * 1.25 * 100).rounded() / 100)
        }
        return .object(product)
    }

    private static func variant(_ id: String, random: inout SeededGenerator) -> StoreValue {
        let size = random.pick(sizes)
        return [
            "sku": .string("\(id)-\(size)"),
            "size": .string(size),
            "stock": .integer(Int64.random(in: 0...80, using: &random)),
            "color": .color(randomColor(&random)),
        ]
    }

    private static func randomColor(_ random: inout SeededGenerator) -> StoreColor {
        StoreColor(
            red: UInt8.random(in: 0...255, using: &random), green: UInt8.random(in: 0...255, using: &random),
            blue: UInt8.random(in: 0...255, using: &random))
    }

    private static func url(_ text: String) -> StoreValue {
        .url(URL(string: text)!)
    }
}
