import Foundation
import KeyscopeCore
import KeyscopePreferences
import Testing

@Suite struct UserDefaultValueTests {
    @Test func codableValuesRoundTripAsJSONText() throws {
        let suite = try WrapperTesting.Suite()
        @UserDefaultValue("theme", defaultValue: SampleTheme.light, suite: suite.name) var theme: SampleTheme
        @UserDefaultValue("layout", suite: suite.name) var layout = SampleLayout()
        @UserDefaultValue("nickname", defaultValue: nil, suite: suite.name) var nickname: String?
        @UserDefaultValue("recent", defaultValue: [], suite: suite.name) var recent: [Int]

        theme = .dark
        layout = SampleLayout(columns: 3, compact: true, tags: ["a", "b"])
        nickname = "ann"
        recent = [3, 1, 2]

        // Fresh wrappers read what the first ones stored.
        @UserDefaultValue("theme", defaultValue: SampleTheme.light, suite: suite.name) var theme2: SampleTheme
        @UserDefaultValue("layout", suite: suite.name) var layout2 = SampleLayout()
        @UserDefaultValue("nickname", defaultValue: nil, suite: suite.name) var nickname2: String?
        @UserDefaultValue("recent", defaultValue: [], suite: suite.name) var recent2: [Int]
        #expect(theme2 == .dark)
        #expect(layout2 == SampleLayout(columns: 3, compact: true, tags: ["a", "b"]))
        #expect(nickname2 == "ann")
        #expect(recent2 == [3, 1, 2])

        // Stored as JSON text (keys sorted) and saved to disk without anyone calling synchronize().
        let file = try suite.fileContents()
        #expect(file["theme"] as? String == #""dark""#)
        #expect(file["layout"] as? String == #"{"columns":3,"compact":true,"tags":["a","b"]}"#)
        #expect(file["nickname"] as? String == #""ann""#)
        #expect(file["recent"] as? String == "[3,1,2]")
    }

    @Test func plainValuesWrittenByOlderCodeAreRead() throws {
        let suite = try WrapperTesting.Suite()
        let monitor = WrapperTesting.RecordingMonitor()
        suite.defaults.set("sepia", forKey: "theme")
        suite.defaults.set(4, forKey: "columns")
        suite.defaults.set(true, forKey: "compact")
        suite.defaults.set(["x", "y"], forKey: "tags")
        suite.defaults.set(2.5, forKey: "scale")
        suite.defaults.set("42", forKey: "code")
        suite.defaults.synchronize()

        @UserDefaultValue("theme", defaultValue: SampleTheme.light, suite: suite.name, monitors: [monitor])
        var theme: SampleTheme
        @UserDefaultValue("columns", defaultValue: 2, suite: suite.name, monitors: [monitor]) var columns: Int
        @UserDefaultValue("compact", defaultValue: false, suite: suite.name, monitors: [monitor]) var compact: Bool
        @UserDefaultValue("tags", defaultValue: [], suite: suite.name, monitors: [monitor]) var tags: [String]
        @UserDefaultValue("scale", defaultValue: 1.0, suite: suite.name, monitors: [monitor]) var scale: Double
        @UserDefaultValue("code", defaultValue: "", suite: suite.name, monitors: [monitor]) var code: String

        #expect(theme == .sepia)
        #expect(columns == 4)
        #expect(compact == true)
        #expect(tags == ["x", "y"])
        #expect(scale == 2.5)
        #expect(code == "42")  // a plain string that happens to be JSON of another type stays a string
        #expect(monitor.errors.isEmpty)
        #expect(
            Set(monitor.messages.filter { $0.kind == .readPlainValue }.map(\.key))
                == ["theme", "columns", "compact", "tags", "scale", "code"])

        // The next write stores JSON.
        theme = .dark
        #expect(try suite.fileContents()["theme"] as? String == #""dark""#)
    }

    @Test func theDefaultValueRemovesTheKey() throws {
        let suite = try WrapperTesting.Suite()
        let monitor = WrapperTesting.RecordingMonitor()
        @UserDefaultValue("layout", suite: suite.name, monitors: [monitor]) var layout = SampleLayout()

        layout = SampleLayout(columns: 5)
        #expect(try suite.fileContents()["layout"] != nil)
        layout = SampleLayout()
        #expect(suite.defaults.object(forKey: "layout") == nil)
        #expect(try suite.fileContents()["layout"] == nil, "the key is gone from the file on disk")
        #expect(layout == SampleLayout())
        #expect(monitor.messages.map(\.kind) == [.written, .removed])

        layout = SampleLayout()  // already the default: nothing to remove, nothing to report
        #expect(monitor.messages.count == 2)
    }

    @Test func thePublisherSendsTheValueThenEveryChange() throws {
        let suite = try WrapperTesting.Suite()
        @UserDefaultValue("theme", defaultValue: SampleTheme.light, suite: suite.name) var theme: SampleTheme
        let received = WrapperTesting.Received<SampleTheme>()
        let watch = $theme.publisher.sink { received.append($0) }
        defer { watch.cancel() }
        #expect(received.all == [.light])

        theme = .dark
        theme = .dark  // the same value again: no delivery
        #expect(received.all == [.light, .dark])

        // Someone else writes the suite with set(_:forKey:): corelibs posts no notification, refresh() picks it up.
        let other = try suite.otherInstance()
        other.set(#""sepia""#, forKey: "theme")
        other.synchronize()
        #expect(theme == .sepia, "reads always see the suite")
        $theme.refresh()
        #expect(received.all == [.light, .dark, .sepia])

        // setPersistentDomain posts UserDefaults.didChangeNotification: delivered at once, without a refresh.
        other.setPersistentDomain(["theme": #""dark""#], forName: suite.name)
        #expect(received.all == [.light, .dark, .sepia, .dark])

        // A notification posted by code that edited the suite (the inspector's write-through) is enough too.
        other.set(#""light""#, forKey: "theme")
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: other)
        #expect(received.all == [.light, .dark, .sepia, .dark, .light])
    }

    @Test func aNewSubscriberGetsTheCurrentValue() throws {
        let suite = try WrapperTesting.Suite()
        @UserDefaultValue("count", defaultValue: 0, suite: suite.name) var count: Int
        try suite.otherInstance().set("7", forKey: "count")  // before anyone refreshed
        let received = WrapperTesting.Received<Int>()
        let watch = $count.publisher.sink { received.append($0) }
        defer { watch.cancel() }
        #expect(received.all == [7])
    }

    @Test func theBindingReadsAndWritesThePreference() throws {
        let suite = try WrapperTesting.Suite()
        @UserDefaultValue("theme", defaultValue: SampleTheme.light, suite: suite.name) var theme: SampleTheme
        let binding = $theme
        #expect(binding.wrappedValue == .light)
        binding.wrappedValue = .sepia
        #expect(theme == .sepia)
        theme = .dark
        #expect(binding.wrappedValue == .dark)
        #expect(_theme.key == "theme")
        #expect(_theme.defaultValue == .light)

        let constant = PreferenceBinding.constant(SampleTheme.dark)
        constant.wrappedValue = .light
        #expect(constant.wrappedValue == .dark)
    }

    @Test func aCorruptValueReadsAsTheDefaultAndIsReportedOnce() throws {
        let suite = try WrapperTesting.Suite()
        let monitor = WrapperTesting.RecordingMonitor()
        suite.defaults.set(#"{"columns": "many"#, forKey: "layout")
        suite.defaults.set(Data([0xFF, 0x00]), forKey: "count")

        @UserDefaultValue("layout", suite: suite.name, monitors: [monitor]) var layout = SampleLayout(columns: 9)
        @UserDefaultValue("count", defaultValue: 1, suite: suite.name, monitors: [monitor]) var count: Int
        #expect(layout == SampleLayout(columns: 9))
        #expect(layout == SampleLayout(columns: 9))
        #expect(count == 1)
        let errors = monitor.errors
        #expect(errors.count == 2, "each bad value is reported once, however often it is read")
        let layoutError = try #require(errors.first { $0.key == "layout" })
        #expect(layoutError.kind == .readFailed)
        #expect(layoutError.source == .userDefaults)
        #expect(layoutError.container == suite.name)
        #expect(layoutError.detail.contains("SampleLayout"))
        #expect(layoutError.detail.contains("the default is used"))

        // A new bad value is reported again; a good one is read.
        suite.defaults.set("[1,", forKey: "layout")
        _ = layout
        #expect(monitor.errors.count == 3)
        layout = SampleLayout(columns: 1)
        #expect(layout == SampleLayout(columns: 1))
    }

    @Test func aValueThatCannotBeEncodedLeavesTheStoredOne() throws {
        let suite = try WrapperTesting.Suite()
        let monitor = WrapperTesting.RecordingMonitor()
        @UserDefaultValue("scale", defaultValue: 1.0, suite: suite.name, monitors: [monitor]) var scale: Double
        scale = 2
        scale = .nan
        #expect(scale == 2)
        #expect(monitor.errors.map(\.kind) == [.writeFailed])
    }
}
