import Foundation
import KeyscopeCore
import KeyscopeInspector
import KeyscopeProtocol
import Testing

@testable import KeyscopePreferences

/// Finding suites and reading them: values written by a separate process, as an app writes them.
@Suite("Scanning UserDefaults suites")
struct ScanningTests {
    /// Every property-list type, written by `KeyscopeTestChild` (another process).
    static let everyType: [(key: String, json: String, value: StoreValue, type: PreferenceValueType)] = [
        ("name", #""Tea ☕""#, "Tea ☕", .string),
        ("count", "42", 42, .integer),
        ("one", "1", 1, .integer),
        ("ratio", "2.5", 2.5, .number),
        ("whole", "3.0", 3.0, .number),
        ("on", "true", true, .bool),
        ("off", "false", false, .bool),
        ("launched", #"{"$$date": "2026-11-21T10:00:00Z"}"#, "2026-11-21T10:00:00.000000Z", .date),
        ("blob", #"{"$$data": "AAEC/w=="}"#, "AAEC/w==", .data),
        (
            "list", #"[1, "x", true, {"$$date": "2020-01-01T00:00:00Z"}]"#,
            [1, "x", true, "2020-01-01T00:00:00.000000Z"], .array
        ),
        (
            "nested", #"{"a": {"b": 2.0, "c": [false]}, "d": {"$$data": "AQ=="}}"#,
            ["a": ["b": 2.0, "c": [false]], "d": "AQ=="], .object
        ),
    ]

    @Test("a suite written by another process is read with every plist type")
    func everyPlistType() throws {
        let sandbox = try PrefsSandbox()
        for entry in Self.everyType { try sandbox.set("com.shop", entry.key, entry.json) }
        #expect(try sandbox.scanner.suiteNames() == ["com.shop"])
        let suite = try #require(try sandbox.scanner.read(suite: "com.shop"))
        #expect(suite.fileURL.path == sandbox.config.appendingPathComponent("com.shop.plist").path)
        #expect(suite.modified != nil)
        #expect(suite.problems.isEmpty)
        for entry in Self.everyType {
            #expect(suite.values[entry.key] == entry.value, "\(entry.key)")
            #expect(suite.types[entry.key] == entry.type, "\(entry.key)")
        }
        #expect(suite.values.count == Self.everyType.count, "no registered defaults or arguments mixed in")
    }

    @Test("a change another process saves after a read is seen by the next read")
    func readsAreFresh() throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("com.shop", "theme", #""light""#)
        #expect(try sandbox.scanner.read(suite: "com.shop")?.values["theme"] == "light")
        try sandbox.set("com.shop", "theme", #""dark""#)  // within the same second: no mtime tricks
        #expect(try sandbox.scanner.read(suite: "com.shop")?.values["theme"] == "dark")
        try sandbox.remove("com.shop", "theme")
        try sandbox.set("com.shop", "other", "1")
        #expect(try sandbox.scanner.read(suite: "com.shop")?.values == ["other": 1])
    }

    @Test("hidden files, folders and unusable names are not suites; a missing folder has none")
    func suiteListing() throws {
        let sandbox = try PrefsSandbox()
        try sandbox.set("com.b", "k", "1")
        try sandbox.set("com.a", "k", "1")
        let config = sandbox.config
        try Data().write(to: config.appendingPathComponent(".GlobalPreferences.plist"))
        try Data().write(to: config.appendingPathComponent("a..b.plist"))
        try Data().write(to: config.appendingPathComponent("notes.txt"))
        try FileManager.default.createDirectory(
            at: config.appendingPathComponent("dir.plist"), withIntermediateDirectories: true)
        #expect(try sandbox.scanner.suiteNames() == ["com.a", "com.b"])
        let missing = UserDefaultsScanner(directory: sandbox.directory.appendingPathComponent("nope"))
        #expect(try missing.suiteNames() == [])
        #expect(try missing.read(suite: "com.a") == nil)
    }

    @Test("suite names with a slash, '..', control characters or nothing are refused with a clear error")
    func badSuiteNames() throws {
        for name in ["a/b", "../etc", "..", "com..shop", "", "tab\there", "/abs"] {
            #expect {
                try UserDefaultsScanner.checkSuiteName(name)
            } throws: { error in
                guard let error = error as? PreferenceSourceError else { return false }
                return error.code == .badName && error.message.contains("never a path")
            }
        }
        try UserDefaultsScanner.checkSuiteName("com.shop.prefs-2")
        let sandbox = try PrefsSandbox()
        #expect(throws: PreferenceSourceError.self) { try sandbox.scanner.read(suite: "../config/x") }
        let repository = try sandbox.repository()
        let outside = PreferenceRef(source: .userDefaults, container: "../escape", key: "k")
        #expect(prefsHubCode { try repository.update(outside, value: "x") } == .badRequest)
        #expect(prefsHubCode { _ = try repository.mirrorStoreID(for: outside) } == .badRequest)
        #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("escape.plist").path))
        // Discovery off takes included names as they are: an unusable one is refused up front.
        #expect(throws: PreferenceSourceError.self) {
            _ = try sandbox.repository(PreferencesConfiguration(discoverUserDefaults: false, includeSuites: ["a/b"]))
        }
    }

    @Test("a suite that holds a Keyscope store is that store already and is skipped")
    func keyscopeStoresSkipped() throws {
        let sandbox = try PrefsSandbox()
        try sandbox.run(["write-prefs", "com.keyscope.owned", "cart", "3"])
        try sandbox.set("com.shop", "theme", #""dark""#)
        let repository = try sandbox.repository()
        #expect(repository.containers().map(\.name) == ["com.shop"])
        #expect(sandbox.mirror("com.keyscope.owned") == nil)
    }

    @Test("values a suite holds without a StoreValue form are reported, not fatal")
    func unrepresentableValues() throws {
        #expect(throws: PreferenceSourceError.self) {
            _ = try PlistConversion.decode([1: "x"] as [AnyHashable: Any], key: "weird")
        }
        #expect(throws: PreferenceSourceError.self) { _ = try PlistConversion.decode(NSObject(), key: "object") }
        #expect(throws: PreferenceSourceError.self) {
            _ = try PlistConversion.decode(Optional<Any>.none as Any, key: "nil")
        }
        #expect(try PlistConversion.decode(NSNumber(value: UInt64.max), key: "big").type == .number)
    }
}

/// plist ↔ StoreValue, both ways.
@Suite("Scanning: property-list values")
struct ScanningValueTests {
    @Test("booleans are told from the numbers 0 and 1")
    func booleans() throws {
        #expect(try PlistConversion.decode(true, key: "k") == (.bool(true), .bool))
        #expect(try PlistConversion.decode(NSNumber(value: true), key: "k").type == .bool)
        #expect(try PlistConversion.decode(NSNumber(value: 1), key: "k") == (.integer(1), .integer))
        #expect(try PlistConversion.decode(NSNumber(value: Int8(1)), key: "k").type == .integer)
        #expect(try PlistConversion.decode(1, key: "k") == (.integer(1), .integer))
        #expect(try PlistConversion.decode(0.0, key: "k") == (.number(0), .number))
    }

    @Test("writes follow the type the key holds")
    func typedWrites() throws {
        let date = Date(timeIntervalSince1970: 1_795_255_200)
        let written = try PlistConversion.encode("2026-11-21T10:00:00.250Z", like: date, key: "d")
        #expect((written as? Date)?.timeIntervalSince1970 == 1_795_255_200.25)
        #expect(throws: PreferenceSourceError.self) { try PlistConversion.encode("tomorrow", like: date, key: "d") }
        #expect(throws: PreferenceSourceError.self) { try PlistConversion.encode(5, like: date, key: "d") }
        #expect(try PlistConversion.encode("AQID", like: Data(), key: "b") as? Data == Data([1, 2, 3]))
        #expect(throws: PreferenceSourceError.self) {
            try PlistConversion.encode("not base64!", like: Data(), key: "b")
        }
        #expect(try PlistConversion.encode(3, like: 2.5, key: "n") as? Double == 3.0)
        #expect(try PlistConversion.encode(3, like: "text", key: "n") as? Int == 3)
        #expect(try PlistConversion.encode("x", like: 3, key: "s") as? String == "x", "other types may change")
        for value: StoreValue in [.null, ["a": nil], .color(StoreColor("#ff0000")!), .url(URL(string: "https://x.y")!)]
        {
            #expect(throws: PreferenceSourceError.self) { try PlistConversion.encode(value, like: nil, key: "k") }
        }
        // Inside containers a string keeps the template's date type when it reads as one.
        let list = try PlistConversion.encode(["2026-11-21T10:00:00Z", "text"], like: [date, date], key: "l")
        let elements = try #require(list as? [Any])
        #expect(elements[0] is Date)
        #expect(elements[1] as? String == "text")
        #expect(PlistConversion.same(list, [date, "text"]))
        #expect(!PlistConversion.same(1, true))
        #expect(!PlistConversion.same(3, 3.0))
    }

    @Test("times are in the log's form and ISO 8601 is read with any fraction or offset")
    func times() {
        let date = Date(timeIntervalSince1970: 1_795_255_200.125)
        #expect(PreferenceTime.format(date) == "2026-11-21T10:00:00.125000Z")
        #expect(PreferenceTime.format(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500000Z")
        #expect(PreferenceTime.parse("2026-11-21T10:00:00.125000Z") == date)
        #expect(PreferenceTime.parse("2026-11-21T10:00:00.125Z") == date)
        #expect(PreferenceTime.parse("2026-11-21T12:00:00+02:00") == Date(timeIntervalSince1970: 1_795_255_200))
        for bad in ["2026-11-21", "yesterday", "2026-11-21T10:00:00.Z", ""] {
            #expect(PreferenceTime.parse(bad) == nil)
        }
    }

    @Test("include and exclude patterns: '*' matches any run, exclude wins")
    func patterns() {
        #expect(PreferenceNames.matches("com.shop.cache", pattern: "com.shop.*"))
        #expect(PreferenceNames.matches("com.shop", pattern: "*"))
        #expect(PreferenceNames.matches("com.shop", pattern: "com*shop"))
        #expect(!PreferenceNames.matches("com.shop", pattern: "com.shop.*"))
        #expect(!PreferenceNames.matches("xcom.shop", pattern: "com*"))
        #expect(PreferenceNames.isSelected("com.a", include: [], exclude: []))
        #expect(!PreferenceNames.isSelected("com.a", include: ["com.*"], exclude: ["com.a"]))
        #expect(!PreferenceNames.isSelected("org.a", include: ["com.*"], exclude: []))
        #expect(["AppleLanguages", "NSFoo", "com.apple.x", "keyscope.store"].allSatisfy(PreferenceNames.isSystemKey))
        #expect(!PreferenceNames.isSystemKey("theme"))
    }
}
