import Foundation
import KeyscopeCore
import Testing

/// StoreValueEncoder / StoreValueDecoder, and StoreValue's own Codable conformance through Foundation's JSON coders.
@Suite struct CodableBridgeTests {
    let encoder = StoreValueEncoder()
    let decoder = StoreValueDecoder()

    // MARK: Round trips

    @Test func nestedStructRoundTripsThroughStoreValue() throws {
        let profile = Profile.sample
        let value = try encoder.encode(profile)
        #expect(try decoder.decode(Profile.self, from: value) == profile)

        // The special cases are stored as their own StoreValue cases.
        #expect(value["age"] == .integer(41))
        #expect(value["score"] == .number(9.5))
        #expect(value["homepage"] == .url(URL(string: "https://example.com/me")!))
        #expect(value["accent"] == .color(StoreColor("#ff8800AA")!))
        #expect(value["joined"] == .number(1_700_000_000.25))
        #expect(value["avatar"] == .string("AAEC/w=="))
        #expect(value["extra"] == ["$raw": 3.0, "n": nil])  // a StoreValue property is stored as itself
        #expect(value["nickname"] == nil)  // a nil optional leaves its key out
        #expect(value["byYear"] == ["2024": "tea"])
        #expect(value["nested"] == ["home": [["city": "Oslo"], nil]])
        #expect(value["plan"] == ["paid": ["seats": 3, "renews": .number(86_400)]])
        #expect(value["plans"]?[0] == ["free": [:]])
    }

    @Test func topLevelScalarsAndCollections() throws {
        #expect(try encoder.encode(5) == .integer(5))
        #expect(try encoder.encode(Int8(-3)) == .integer(-3))
        #expect(try encoder.encode("s") == .string("s"))
        #expect(try encoder.encode(true) == .bool(true))
        #expect(try encoder.encode(Int?.none) == .null)
        #expect(try encoder.encode([1, 2]) == [1, 2])
        #expect(try encoder.encode(Empty()) == [:])
        #expect(try decoder.decode(Int?.self, from: .null) == nil)
        #expect(try decoder.decode([Int?].self, from: [1, nil, 3]) == [1, nil, 3])
        #expect(try decoder.decode([String: Bool].self, from: ["$a": true]) == ["$a": true])
    }

    @Test func storeValueIsExactThroughItsOwnCoders() throws {
        let value: StoreValue = ["$x": 3.0, "$number": "nan", "c": .color(StoreColor("#abcdef")!), "n": .number(.nan)]
        #expect(try encoder.encode(value) == value)  // no `$`-escaping, no tagging, 3.0 stays a number
        #expect(try decoder.decode(StoreValue.self, from: value) == value)
    }

    @Test func superEncodersAndNestedContainers() throws {
        let derived = Derived(id: 7, extra: "x")
        let value = try encoder.encode(derived)
        #expect(value == ["extra": "x", "super": ["id": 7]])
        let back = try decoder.decode(Derived.self, from: value)
        #expect(back.id == 7 && back.extra == "x")

        let shape = Shape(name: "tri", points: [[0, 0], [1, 0], [0, 1]])
        let shapeValue = try encoder.encode(shape)
        #expect(shapeValue == ["tri", [["x": 0, "y": 0], ["x": 1, "y": 0], ["x": 0, "y": 1]], ["count": 3]])
        #expect(try decoder.decode(Shape.self, from: shapeValue) == shape)
    }

    // MARK: Integers and numbers

    @Test func integersAndNumbersStayApart() throws {
        #expect(try encoder.encode(3) == .integer(3))
        #expect(try encoder.encode(3.0) == .number(3.0))
        #expect(try encoder.encode(Float(0.5)) == .number(0.5))
        #expect(try encoder.encode(Double.infinity) == .number(.infinity))
        #expect(try encoder.encode(UInt64(Int64.max)) == .integer(.max))
        #expect(try decoder.decode(Double.self, from: 3) == 3.0)
        #expect(try decoder.decode(Float.self, from: 0.1) == Float(0.1))
        #expect(try decoder.decode(Int.self, from: 3.0) == 3)  // a whole .number from a sloppy client
        #expect(try decoder.decode(UInt64.self, from: .number(1e19)) == 10_000_000_000_000_000_000)
        #expect(try decoder.decode(Int8.self, from: -128) == -128)
        #expect(try decoder.decode(Int64.self, from: .integer(.min)) == .min)
    }

    @Test func outOfRangeNumbersAreDataCorruptedWithTheirPath() throws {
        func check<T: Decodable>(_ value: StoreValue, _ type: T.Type, shows shown: String) throws {
            let (kind, context) = try #require(failure { _ = try decoder.decode([String: T].self, from: ["v": value]) })
            #expect(kind == "dataCorrupted")
            #expect(context.codingPath.map(\.stringValue) == ["v"])
            #expect(context.debugDescription.contains(shown), "\(context.debugDescription)")
            #expect(context.debugDescription.contains("\(T.self)"), "\(context.debugDescription)")
        }
        try check(300, UInt8.self, shows: "300")
        try check(-129, Int8.self, shows: "-129")
        try check(-1, UInt.self, shows: "-1")
        try check(70_000, Int16.self, shows: "70000")
        try check(3.5, Int.self, shows: "3.5")
        try check(.number(1e19), Int64.self, shows: "1e+19")
        try check(.number(.nan), Int.self, shows: "nan")
        try check(.number(1e300), Float.self, shows: "1e+300")
        #expect(throws: DecodingError.self) { try decoder.decode(UInt8.self, from: 300) }
    }

    @Test func encodingAnUnsignedAboveInt64MaxThrows() throws {
        let error = try #require(#expect(throws: EncodingError.self) { try encoder.encode(["big": UInt64.max]) })
        guard case .invalidValue(_, let context) = error else { throw error }
        #expect(context.codingPath.map(\.stringValue) == ["big"])
        #expect(context.debugDescription.contains("18446744073709551615"))
        #expect(context.debugDescription.contains("Int64.max"))
        #expect(throws: EncodingError.self) { try encoder.encode([UInt.max]) }
    }

    // MARK: Errors carry the coding path

    @Test func missingKeyIsKeyNotFoundAtTheObjectsPath() throws {
        let value: StoreValue = ["home": [["city": "Oslo"], ["zip": "0150"]]]
        let (kind, context) = try #require(
            failure { _ = try decoder.decode([String: [Profile.Address]].self, from: value) })
        #expect(kind == "keyNotFound(city)")
        #expect(context.codingPath.map(\.stringValue) == ["home", "Index 1"])
    }

    @Test func wrongCaseIsTypeMismatchNamingTheCaseFound() throws {
        let value: StoreValue = ["outer": ["items": [1, "two"]]]
        let (kind, context) = try #require(
            failure { _ = try decoder.decode([String: [String: [Int]]].self, from: value) })
        #expect(kind == "typeMismatch(Int)")
        #expect(context.codingPath.map(\.stringValue) == ["outer", "items", "Index 1"])
        #expect(context.debugDescription.contains("string"))

        let object = try #require(failure { _ = try decoder.decode(Profile.Address.self, from: [1]) })
        #expect(object.kind == "typeMismatch(Dictionary<String, StoreValue>)")
        #expect(object.context.debugDescription.contains("array"))

        let null = try #require(failure { _ = try decoder.decode([String].self, from: ["a", nil]) })
        #expect(null.kind == "valueNotFound(String)")
        #expect(null.context.codingPath.map(\.stringValue) == ["Index 1"])
    }

    @Test func encodingTwoKindsOfContainerAtOnePlaceThrows() {
        #expect(throws: EncodingError.self) { try encoder.encode(Conflicted()) }
    }

    // MARK: Lenient and special decodes

    @Test func specialTypesDecodeFromTheirLenientForms() throws {
        let color = StoreColor("#112233")!
        let url = URL(string: "https://example.com/a?b=1")!
        #expect(try decoder.decode(String.self, from: .color(color)) == "#112233")
        #expect(try decoder.decode(String.self, from: .url(url)) == "https://example.com/a?b=1")
        #expect(try decoder.decode(URL.self, from: "https://example.com/a?b=1") == url)
        #expect(try decoder.decode(StoreColor.self, from: "#112233") == color)
        #expect(try decoder.decode(StoreColor.self, from: "#11223344").alpha == 0x44)
        #expect(try decoder.decode(Date.self, from: 60) == Date(timeIntervalSince1970: 60))
        #expect(try decoder.decode(Data.self, from: "AAEC/w==") == Data([0, 1, 2, 255]))
        #expect(try decoder.decode(Bool.self, from: true))

        #expect(throws: DecodingError.self) { try decoder.decode(URL.self, from: "relative/path") }
        #expect(throws: DecodingError.self) { try decoder.decode(StoreColor.self, from: "red") }
        #expect(throws: DecodingError.self) { try decoder.decode(Data.self, from: "not base64!") }
        #expect(throws: DecodingError.self) { try decoder.decode(Bool.self, from: 1) }
        #expect(throws: DecodingError.self) { try decoder.decode(String.self, from: 1) }
        #expect(throws: EncodingError.self) { try encoder.encode(URL(string: "relative/path")!) }
    }

    // MARK: StoreValue through Foundation's JSON coders

    @Test func storeValueRoundTripsThroughFoundationJSON() throws {
        let value: StoreValue = [
            "name": "Tea", "count": 3, "price": 2.5, "tiny": 1e-300, "ok": true, "none": nil,
            "$beta": true, "$$gamma": ["$color": "not a tag once escaped"], "$url": 1,
            "accent": .color(StoreColor("#FF8800aa")!), "site": .url(URL(string: "https://example.com/x")!),
            "nan": .number(.nan), "inf": .number(.infinity), "ninf": .number(-.infinity),
            "list": [1, -0.5, "x", [], [:], [.color(StoreColor("#000000")!)]],
        ]
        let json = JSONEncoder()
        json.outputFormatting = .sortedKeys
        let data = try json.encode(value)
        #expect(try JSONDecoder().decode(StoreValue.self, from: data) == value)
        // What Foundation writes is the docs/store.md form, which the project's own reader accepts as the same value.
        #expect(try StoreValue(jsonData: data) == value)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""$$beta":true"#))
        #expect(text.contains(#""$$$gamma":{"$$color":"not a tag once escaped"}"#))
        #expect(text.contains(#""nan":{"$number":"nan"}"#))
        #expect(text.contains(##""accent":{"$color":"#FF8800aa"}"##))
    }

    @Test func foundationTurnsAWholeDoubleIntoAnInteger() throws {
        let data = try JSONEncoder().encode(StoreValue.number(3.0))
        #expect(try JSONDecoder().decode(StoreValue.self, from: data) == .integer(3))
    }

    @Test(arguments: [
        #"{"$color": "red"}"#, #"{"$color": 5}"#, #"{"$number": "1.5"}"#, #"{"$url": "no scheme"}"#,
        ##"[1, {"$url": "https://ok.example"}, {"$color": "#12"}]"##, #"{"a": 1, "$a": 2}"#,
    ])
    func badTaggedValuesFailThroughFoundationJSON(text: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(StoreValue.self, from: Data(text.utf8)) }
    }

    @Test func foundationJSONTagsAndEscapesAreRead() throws {
        let text =
            #"{"a": {"$url": "https://example.com"}, "$$b": {"$number": "-inf"}, "#
            + ##""$c": [{"$color": "#aBcDeF"}]}"##
        let value = try JSONDecoder().decode(StoreValue.self, from: Data(text.utf8))
        let expected: StoreValue = [
            "a": .url(URL(string: "https://example.com")!), "$b": .number(-.infinity),
            "c": [.color(StoreColor("#aBcDeF")!)],
        ]
        #expect(value == expected)
    }

    // MARK: Stores

    @Test func storesSetAndGetCodableValues() throws {
        let store = KeyValueStore(id: StoreID(scope: .app, storage: .memory))
        try store.set("profile", encoding: Profile.sample)
        #expect(store.get("profile.homepage") == .url(URL(string: "https://example.com/me")!))
        #expect(try store.get("profile", as: Profile.self) == Profile.sample)
        #expect(try store.get("missing", as: Profile.self) == nil)
    }
}

// MARK: - Helpers

/// The kind of `DecodingError` that `body` threw (`"keyNotFound(city)"`, `"typeMismatch(Int)"`…) and its context.
private func failure(_ body: () throws -> Void) -> (kind: String, context: DecodingError.Context)? {
    do {
        try body()
        Issue.record("expected a DecodingError, nothing was thrown")
    } catch let error as DecodingError {
        switch error {
        case .typeMismatch(let type, let context): return ("typeMismatch(\(type))", context)
        case .valueNotFound(let type, let context): return ("valueNotFound(\(type))", context)
        case .keyNotFound(let key, let context): return ("keyNotFound(\(key.stringValue))", context)
        case .dataCorrupted(let context): return ("dataCorrupted", context)
        @unknown default: Issue.record("unknown DecodingError \(error)")
        }
    } catch {
        Issue.record("expected a DecodingError, got \(error)")
    }
    return nil
}

// MARK: - Fixtures

private struct Profile: Codable, Equatable {
    enum Plan: Codable, Equatable {
        case free
        case trial(daysLeft: Int)
        case paid(seats: UInt8, renews: Date?)
    }
    struct Address: Codable, Equatable {
        var city: String
        var zip: String?
    }
    var name = "Ada"
    var age = 41
    var score = 9.5
    var ratio: Float = 0.1
    var tags = ["a", "b"]
    var nickname: String?
    var addresses = [Address(city: "Oslo", zip: "0150"), Address(city: "Bergen")]
    var plan = Plan.paid(seats: 3, renews: Date(timeIntervalSince1970: 86_400))
    var plans: [Plan] = [.free, .trial(daysLeft: 5)]
    var limits = ["cpu": 2, "$mem": 512]
    var byYear = [2024: "tea"]
    var homepage = URL(string: "https://example.com/me")!
    var joined = Date(timeIntervalSince1970: 1_700_000_000.25)
    var accent = StoreColor("#ff8800AA")!
    var avatar = Data([0, 1, 2, 255])
    var matrix: [[Int16]] = [[1, -2], [], [32767]]
    var nested: [String: [Address?]] = ["home": [Address(city: "Oslo"), nil]]
    var extra: StoreValue = ["$raw": 3.0, "n": nil]

    static let sample = Profile()
}

private struct Empty: Codable, Equatable {}

/// Writes one value, then asks for an array at the same place.
private struct Conflicted: Encodable {
    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(1)
        _ = encoder.unkeyedContainer()
    }
}

private class Base: Codable {
    var id: Int
    init(id: Int) { self.id = id }
}

/// Encodes its superclass through `superEncoder()`: `{"extra": …, "super": {"id": …}}`.
private final class Derived: Base {
    var extra: String
    enum CodingKeys: String, CodingKey { case extra }

    init(id: Int, extra: String) {
        self.extra = extra
        super.init(id: id)
    }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        extra = try container.decode(String.self, forKey: .extra)
        try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(extra, forKey: .extra)
        try super.encode(to: container.superEncoder())
    }
}

/// Hand-written nested containers: `[name, [{"x": …, "y": …}…], {"count": …}]`, the list filled after the info
/// container was created and the name written through an unkeyed super-encoder.
private struct Shape: Codable, Equatable {
    var name: String
    var points: [[Int]]
    enum PointKeys: String, CodingKey { case x, y }
    enum InfoKeys: String, CodingKey { case count }

    func encode(to encoder: any Encoder) throws {
        var top = encoder.unkeyedContainer()
        try name.encode(to: top.superEncoder())
        var list = top.nestedUnkeyedContainer()
        var info = top.nestedContainer(keyedBy: InfoKeys.self)
        try info.encode(points.count, forKey: .count)
        for point in points {
            var pair = list.nestedContainer(keyedBy: PointKeys.self)
            try pair.encode(point[0], forKey: .x)
            try pair.encode(point[1], forKey: .y)
        }
    }
}

extension Shape {
    init(from decoder: any Decoder) throws {
        var top = try decoder.unkeyedContainer()
        name = try String(from: top.superDecoder())
        var list = try top.nestedUnkeyedContainer()
        points = []
        while !list.isAtEnd {
            let pair = try list.nestedContainer(keyedBy: PointKeys.self)
            points.append([try pair.decode(Int.self, forKey: .x), try pair.decode(Int.self, forKey: .y)])
        }
        let info = try top.nestedContainer(keyedBy: InfoKeys.self)
        guard try info.decode(Int.self, forKey: .count) == points.count, top.isAtEnd else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "bad shape"))
        }
    }
}
