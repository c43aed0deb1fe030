import Foundation
import KeyscopeCodec
import KeyscopeCore

/// What the codec benchmarks encode and decode: the push workload's store (100 items), a nested cart, and one log
/// line of the push workload; and the same data in the forms Foundation's coders take.
///
/// ```swift
/// let inputs = CodecInputs()
/// let bytes = try JanssonCodec.encode(inputs.snapshot)
/// ```
struct CodecInputs {
    /// The push workload's store root: 100 items of a 60-character title, a price and a quantity; about 10 kB.
    let snapshot: StoreValue
    /// A checkout's state as an app would hold it: a cart of six items (tags, fractions, a null, a color), a user
    /// and a session; about 1 kB.
    let cart: StoreValue
    /// A change of the push workload as the log holds it: one `set` of a 60-character title, with old and new.
    let line: LogEntry

    init() {
        let workload = PushWorkload()
        snapshot = workload.makeStore().snapshot()
        cart = Self.makeCart()
        let patch = StorePatch(
            op: .set, keyPath: workload.paths[3], oldValue: workload.titles[1], newValue: workload.titles[0])
        line = LogEntry(
            seq: 1_234_567, time: LogTime(rfc3339: "2026-11-21T10:00:00.125000Z")!,
            event: .change(StoreChange(storeID: PushWorkload.storeID, patches: [patch])))
    }

    private static func makeCart() -> StoreValue {
        let titles = [
            "Darjeeling first flush, 100 g", "Assam second flush, 250 g", "Sencha Uji, 50 g", "Teapot, cast iron",
            "Gift card", "Oolong Dong Ding, 100 g",
        ]
        let prices = [12.5, 9.95, 14.25, 48.9, 25.75, 16.4]
        let items: [StoreValue] = titles.indices.map { index in
            [
                "sku": .string("SKU-\(4100 + index)"), "title": .string(titles[index]), "price": .number(prices[index]),
                "qty": .integer(Int64(1 + index % 3)), "tags": ["tea", index.isMultiple(of: 2) ? "organic" : "gift"],
                "giftWrap": .bool(index == 4), "note": index == 2 ? "no plastic, please" : .null,
            ]
        }
        return [
            "cart": [
                "items": .array(items), "total": 161.65, "currency": "EUR", "coupon": .null, "discount": 0.1,
                "accent": .color(StoreColor("#FF8800")!),
            ],
            "user": [
                "id": 4211, "name": "Ada Lovelace", "email": "ada@example.com",
                "loyalty": ["tier": "gold", "points": 1280, "since": "2024-03-01"],
            ],
            "session": [
                "started": "2026-11-21T10:00:00Z", "device": "iPhone16,2", "locale": "en_GB",
                "flags": ["beta": true, "darkMode": false, "newCheckout": true],
            ],
        ]
    }
}

/// A StoreValue as the Foundation objects `JSONSerialization` takes (`NSNull`, numbers, strings, arrays,
/// dictionaries; colors, URLs and non-finite numbers as their docs/store.md tag objects).
func foundationObject(_ value: StoreValue) -> Any {
    switch value {
    case .null: NSNull()
    case .bool(let bool): bool
    case .integer(let integer): integer
    case .number(let number) where number.isFinite: number
    case .number(let number): ["$number": number.isNaN ? "nan" : number > 0 ? "inf" : "-inf"]
    case .string(let string): string
    case .color(let color): ["$color": color.hex]
    case .url(let url): ["$url": url.absoluteString]
    case .array(let elements): elements.map(foundationObject)
    case .object(let members):
        Dictionary(
            uniqueKeysWithValues: members.map { key, member in
                (key.unicodeScalars.first == "$" ? "$" + key : key, foundationObject(member))
            })
    }
}

/// A log line as a Swift user would model it for `JSONEncoder` and `JSONDecoder`: the same members and the same
/// JSON as Keyscope's line (`txn` written as `null`), made from and turned back into a ``LogEntry`` so that both
/// sides start and end with the same value.
struct CodableLogLine: Codable {
    struct Patch: Codable {
        var new: StoreValue?
        var old: StoreValue?
        var op: String
        var path: String
    }

    var patches: [Patch]
    var seq: Int64
    var store: String
    var time: String
    var txn: String?

    init(_ entry: LogEntry) {
        guard case .change(let change) = entry.event else { preconditionFailure("the bench line is a change") }
        patches = change.patches.map {
            Patch(new: $0.newValue, old: $0.oldValue, op: $0.op.rawValue, path: $0.keyPath.description)
        }
        seq = entry.seq
        store = change.storeID.description
        time = entry.time.rfc3339
        txn = change.transactionID?.uuidString
    }

    /// Writes `txn` as `null` when there is none, as the log line does (the synthesized encoder would leave it out).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(patches, forKey: .patches)
        try container.encode(seq, forKey: .seq)
        try container.encode(store, forKey: .store)
        try container.encode(time, forKey: .time)
        try container.encode(txn, forKey: .txn)
    }

    /// The entry again: key paths, the store id and the time parsed, as ``JanssonCodec/decodeLogEntry(_:maxDepth:)``
    /// does.
    func entry() throws -> LogEntry {
        guard let storeID = StoreID(store), let logTime = LogTime(rfc3339: time) else {
            throw BenchError("a bad store id or time in a decoded line")
        }
        let parsed = try patches.map { patch in
            guard let op = StorePatch.Operation(rawValue: patch.op) else { throw BenchError("a bad op \(patch.op)") }
            return StorePatch(
                op: op, keyPath: try StoreKeyPath(parsing: patch.path), oldValue: patch.old, newValue: patch.new)
        }
        let change = StoreChange(storeID: storeID, patches: parsed, transactionID: txn.flatMap(UUID.init(uuidString:)))
        return LogEntry(seq: seq, time: logTime, event: .change(change))
    }
}
